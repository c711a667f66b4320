import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { testNats } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);
const APPS = ['healthchecker', 'scheduler', 'reaper', 'api'] as const;
type App = (typeof APPS)[number];

/** What each app needs beyond NATS and a database to become ready: its port key, a cluster, a curriculum. */
const appConfig = (app: App, kubeconfig: string): Record<string, unknown> => ({
  ...(app === 'api' ? { httpPort: 0, curriculumDir: join(root, 'examples', 'curriculum') } : { ops: { host: '127.0.0.1', [`${app}Port`]: 0 } }),
  ...(app === 'scheduler' || app === 'reaper' ? { k8sInCluster: false, k8sOutOfClusterConfigPath: kubeconfig } : {}),
});

/**
 * The deployable folder of each app (tools/scripts/package-app.sh, what the Dockerfile runs): its bundle
 * and production dependencies only, started from a folder outside the repository with nothing else on
 * its module path; it answers /healthz and /readyz and exits 0 on SIGTERM.
 */
describe('packaged apps', () => {
  const work = mkdtempSync(join(tmpdir(), 'antidote-package-'));
  const kubeconfig = join(work, 'kubeconfig');
  let nats: Awaited<ReturnType<typeof testNats>> | undefined;
  let kubeSim: ChildProcess | undefined;

  beforeAll(async () => {
    nats = await testNats();
    writeFileSync(kubeconfig, '');
    kubeSim = spawn(
      process.execPath,
      [join(root, 'tools', 'kube-sim', 'dist', 'main.js'), '--port', '0', '--kubeconfig', kubeconfig, '--secret', 'prod/tls-certificate'],
      { stdio: 'ignore' },
    );
    for (const until = Date.now() + 120_000; !readFileSync(kubeconfig, 'utf8').includes('server:'); await new Promise((resolve) => setTimeout(resolve, 100))) {
      if (Date.now() > until) throw new Error('kube-sim did not write its kubeconfig');
    }
  });
  afterAll(async () => {
    kubeSim?.kill('SIGTERM');
    await nats?.stop();
  });

  it.each(APPS)(
    '%s starts from a clean folder holding only its bundle, answers /healthz and /readyz, exits 0 on SIGTERM',
    { timeout: 300_000 },
    async (app) => {
      const out = join(work, app);
      await run('bash', [join(root, 'tools', 'scripts', 'package-app.sh'), app, out], { cwd: root, timeout: 240_000 });
      expect(readdirSync(out).sort()).toEqual(expect.arrayContaining(['docker-entrypoint.sh', 'main.js', 'node_modules', 'package.json']));
      expect(readdirSync(out).some((name) => name.endsWith('.ts'))).toBe(false);
      expect(existsSync(join(out, 'node_modules', '@antidote')), 'workspace packages are bundled, not installed').toBe(false);
      const config = join(work, `${app}-config.yml`);
      const settings = {
        instanceId: 'pkg',
        curriculumDir: '/none',
        ...nats!.loginAs(app),
        database: { url: `sqlite:${join(work, `${app}.sqlite`)}` },
        logging: { level: 'info' },
        ...appConfig(app, kubeconfig),
      };
      writeFileSync(config, stringify(settings));
      const child = spawn(process.execPath, [join(out, 'main.js')], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', ANTIDOTE_CONFIG: config },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      try {
        const listening = /"url":"http:\/\/[^"]*:(\d+)"/;
        await expect.poll(() => listening.test(log)).toBe(true);
        const port = listening.exec(log)![1];
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
        await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status, { timeout: 60_000 }).toBe(200);
        expect((await fetch(`http://127.0.0.1:${port}/no-such-route`, { signal: AbortSignal.timeout(10_000) })).status).toBe(404);
        if (app === 'api') {
          // The learner's UI and the API document's UI travel with the packaged api.
          const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
          const assets = /src="(\/assets\/[0-9a-f]{12}\/)js\/main\.js"/.exec(page)?.[1];
          expect(assets, page).toBeDefined();
          for (const path of [`${assets}js/main.js`, `${assets}vendor/xterm.mjs`, '/exp/docs/'])
            expect((await fetch(`http://127.0.0.1:${port}${path}`)).status, path).toBe(200);
        }
      } finally {
        child.kill('SIGTERM');
        const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
        expect(code, log).toBe(0);
        expect(log, 'an unknown route logs no stack trace').not.toMatch(/NotFoundException|\n\s+at /);
        expect(log, 'the NATS password is never logged').not.toContain(nats!.credentials[app].password);
      }
    },
  );
});
