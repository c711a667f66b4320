import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type LaunchOptions } from 'playwright-core';
import { CHROMIUM } from './front-end.js';

/** What a page is shown on (its viewport, a phone's touch screen, the colour scheme), and the site relative URLs go to. */
export type ScreenOptions = Pick<
  Parameters<typeof chromium.launchPersistentContext>[1] & LaunchOptions,
  'viewport' | 'isMobile' | 'hasTouch' | 'deviceScaleFactor' | 'colorScheme' | 'baseURL'
>;

/** Debian's headless Chromium with a fresh profile of its own (`--user-data-dir`), removed on close. */
export async function launchChromium(screen: ScreenOptions = {}): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'antidote-chromium-'));
  // playwright passes the profile as Chromium's --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM.executablePath,
    args: CHROMIUM.args,
    viewport: { width: 1400, height: 900 },
    ...screen,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
