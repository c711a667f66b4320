import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testNats } from '@antidote/testing';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);

/**
 * The deployable folder of an app (tools/scripts/package-app.sh, what the Dockerfile runs): its bundle
 * and production dependencies only, started from a folder outside the repository.
 */
describe('packaged app', () => {
  let nats: Awaited<ReturnType<typeof testNats>> | undefined;
  afterAll(() => nats?.stop());

  it('the healthchecker starts from a clean folder holding only its bundle and answers /healthz and /readyz', { timeout: 600_000 }, async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'antidote-package-')), 'healthchecker');
    await run('bash', [join(root, 'tools', 'scripts', 'package-app.sh'), 'healthchecker', out], { cwd: root, timeout: 540_000 });
    expect(readdirSync(out).sort()).toEqual(expect.arrayContaining(['docker-entrypoint.sh', 'main.js', 'node_modules', 'package.json']));
    expect(readdirSync(out).some((name) => name.endsWith('.ts'))).toBe(false);
    nats = await testNats();
    const config = join(out, '..', 'antidote-config.yml');
    writeFileSync(config, `instanceId: pkg\ncurriculumDir: /none\nnatsUrl: ${nats.url}\ndatabase:\n  url: "sqlite:${join(out, '..', 'db.sqlite')}"\nops:\n  host: 127.0.0.1\n  healthcheckerPort: 0\nlogging:\n  level: info\n`);
    const child = spawn(process.execPath, [join(out, 'main.js')], { cwd: join(out, '..'), env: { PATH: process.env.PATH ?? '', ANTIDOTE_CONFIG: config }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    try {
      const listening = /"url":"http:\/\/[^"]*:(\d+)"/;
      await expect.poll(() => listening.test(log), { timeout: 30_000 }).toBe(true);
      const port = listening.exec(log)![1];
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status, { timeout: 30_000 }).toBe(200);
    } finally {
      child.kill('SIGTERM');
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, log).toBe(0);
    }
  });
});
