import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { testNats, writeHostileCurriculum } from '@antidote/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

const main = join(import.meta.dirname, '..', '..', 'dist', 'main.js');

describe('the api importing a curriculum at start (the built app, as a process)', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('answers /healthz while the import is running', async () => {
    // The attack that once held the event loop for seconds to minutes: a deeply nested document (under the
    // size limit), here let through the nesting check on purpose so that one synchronous parse keeps the
    // import busy. Run in-process, it would hold /healthz until the import is over.
    const dir = writeHostileCurriculum('deep nesting');
    const depth = 500_000;
    // Read last: in-process, nothing would be left to wait on after its parse, so /readyz would turn at once.
    mkdirSync(join(dir, 'lessons', 'zz-deep'));
    writeFileSync(join(dir, 'lessons', 'zz-deep', 'lesson.meta.yaml'), `name: ${'['.repeat(depth)}${']'.repeat(depth)}\n`);
    const nats = await testNats();
    cleanups.push(() => nats.stop());
    const work = mkdtempSync(join(tmpdir(), 'api-import-'));
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

    // The read has begun: /healthz answers, and after that answer /readyz still says the curriculum is not in.
    const healthz = (await fetch(`${url}/healthz`)).status;
    const readyz = (await (await fetch(`${url}/readyz`)).json()) as { checks: Record<string, boolean> };
    const seen = { healthz, curriculum: readyz.checks.curriculum };
    expect(seen).toEqual({ healthz: 200, curriculum: false });
  }, 300_000);
});
