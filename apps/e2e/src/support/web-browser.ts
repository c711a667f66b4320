import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM } from './front-end.js';

/** Debian's headless Chromium with a fresh profile of its own (`--user-data-dir`), removed on close. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'antidote-chromium-'));
  // playwright passes the profile as Chromium's --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM.executablePath, args: CHROMIUM.args, viewport: { width: 1400, height: 900 } });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
