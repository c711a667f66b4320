import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { testNats } from '@antidote/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

const main = join(import.meta.dirname, '..', '..', 'dist', 'main.js');

describe('the api importing a curriculum at start (the built app, as a process)', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('answers /healthz while the import is running: many answers, each while the read is provably still in progress', async () => {
    // The attack that once held the event loop for seconds to minutes: one deeply nested document (under the
    // size limit), let through the nesting check on purpose so that its one synchronous parse takes seconds.
    // It is the whole curriculum (its root meta file, nothing else): run on the event loop, the api could
    // answer only in the few awaits before and after that parse, never during it.
    const dir = mkdtempSync(join(tmpdir(), 'api-import-curriculum-'));
    const depth = 500_000;
    writeFileSync(join(dir, 'curriculum.meta.yaml'), `name: ${'['.repeat(depth)}${']'.repeat(depth)}\n`);
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const nats = await testNats();
    cleanups.push(() => nats.stop());
    const work = mkdtempSync(join(tmpdir(), 'api-import-'));
    cleanups.push(() => rmSync(work, { recursive: true, force: true }));
    const config = join(work, 'antidote.yaml');
    writeFileSync(
      config,
      stringify({
        instanceId: 'importtest',
        curriculumDir: dir,
        ...nats.loginAs('api'),
        httpPort: 0,
        database: { url: `sqlite:${join(work, 'db.sqlite')}` },
        api: { host: '127.0.0.1' },
        curriculumLimits: { yamlDepth: depth + 10, seconds: 3600 },
      }),
    );
    const api = spawn(process.execPath, [main], { env: { ...process.env, ANTIDOTE_CONFIG: config }, stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => void api.kill('SIGKILL'));
    const lines = createInterface({ input: api.stdout });
    const logged = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        api.once('exit', (code) => reject(new Error(`the api exited (${code})`)));
        lines.on('line', (line) => {
          const found = pattern.exec(line);
          if (found) resolve(found);
        });
      });
    const listening = logged(/"url":"(http:\/\/[^"]+)"/);
    const reading = logged(/reading curriculum/);
    const url = (await listening)[1].replace('[::1]', '127.0.0.1');
    await reading;

    // The read has begun. One at a time: a /healthz answer counts when a /readyz asked after it still says
    // the curriculum is not in (the import sets it only once the read is over). Off the event loop, every
    // answer counts, as many as asked for; on it, only the few in the awaits around the parse can.
    const wanted = 50;
    const get = (path: string) => fetch(`${url}${path}`, { signal: AbortSignal.timeout(60_000) });
    let answeredDuringImport = 0;
    while (answeredDuringImport < wanted) {
      const healthz = await get('/healthz');
      expect(healthz.status).toBe(200);
      const readyz = (await (await get('/readyz')).json()) as { checks: Record<string, boolean> };
      if (readyz.checks.curriculum !== false) break;
      answeredDuringImport++;
    }
    expect(answeredDuringImport).toBe(wanted);
  }, 300_000);
});
