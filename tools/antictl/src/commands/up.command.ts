import type { Command } from 'commander';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse, stringify } from 'yaml';
import { startNatsServer, type NatsServerProcess } from '@antidote/messaging/dev';
import { busLoginEnv, writeLocalBusCredentials } from '../bus-credentials.js';
import { CliError, type Output } from '../output.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const APPS = ['healthchecker', 'scheduler', 'reaper', 'api'] as const;
type App = (typeof APPS)[number];

interface UpOptions {
  config?: string;
  dir: string;
  apiPort: string;
  curriculum: string;
  restart?: boolean;
}

interface Started {
  name: string;
  child: ChildProcess;
}

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });

async function waitFor(check: () => Promise<boolean> | boolean, what: string, timeoutMs: number, alive: () => string | undefined): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const dead = alive();
    if (dead) throw new CliError(`${dead} exited while waiting for ${what}`);
    if (await Promise.resolve(check()).catch(() => false)) return;
    await sleep(200);
  }
  throw new CliError(`timed out waiting for ${what}`);
}

const ready = async (port: number): Promise<boolean> => (await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) })).ok;

/**
 * `antictl up`: the whole platform on this machine — a nats-server, kube-sim (unless the config names a
 * cluster), the four apps from their builds, SQLite under `--dir`, the sample curriculum. Ctrl-C stops
 * what it started, and nothing else.
 */
export function upCommand(program: Command, output: () => Output): void {
  program
    .command('up')
    .description('run the whole platform locally (nats-server, kube-sim, the four apps, SQLite, sample curriculum)')
    .option('--config <file>', 'an Antidote config to start from (its cluster, database, curriculum)')
    .option('--dir <dir>', 'state, logs and generated config', '.antidote')
    .option('--api-port <port>', 'API port (0: a free one)', '8086')
    .option('--curriculum <dir>', 'curriculum to serve when the config names none', join(ROOT, 'examples', 'curriculum'))
    .option('--restart', 'start an app again when it exits, instead of stopping everything')
    .action(async (flags: UpOptions) => {
      const out = output();
      const dir = resolve(flags.dir);
      mkdirSync(join(dir, 'logs'), { recursive: true });
      for (const app of APPS) if (!existsSync(join(ROOT, 'apps', app, 'dist', 'main.js'))) throw new CliError(`apps/${app} is not built: run \`npm run build\` first`);
      const base = flags.config ? ((parse(readFileSync(flags.config, 'utf8')) as Record<string, unknown> | null) ?? {}) : {};
      const started: Started[] = [];
      let nats: NatsServerProcess | undefined;
      let stopping = false;
      const stopAll = async (): Promise<void> => {
        stopping = true;
        for (const { child } of [...started].reverse()) {
          if (child.exitCode !== null || child.signalCode !== null) continue;
          child.kill('SIGTERM');
          await Promise.race([new Promise((done) => child.once('exit', done)), sleep(10_000).then(() => child.kill('SIGKILL'))]);
        }
        await nats?.stop();
      };
      const deadChild = (): string | undefined => started.find(({ child }) => child.exitCode !== null || child.signalCode !== null)?.name;
      const launch = (name: string, args: string[], env: Record<string, string> = {}): ChildProcess => {
        const log = createWriteStream(join(dir, 'logs', `${name}.log`), { flags: 'a' });
        const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout?.pipe(log);
        child.stderr?.pipe(log);
        child.once('exit', (code, signal) => {
          if (stopping) return;
          if (flags.restart && (APPS as readonly string[]).includes(name)) {
            started.splice(started.findIndex((entry) => entry.child === child), 1);
            out.line(`${name} exited (${signal ?? code}); restarted (pid ${launch(name, args, env).pid})`);
            return;
          }
          out.line(`${name} exited (${signal ?? code}); see ${join(dir, 'logs', `${name}.log`)}. Stopping everything.`);
          void stopAll().then(() => process.exit(1));
        });
        started.push({ name, child });
        return child;
      };
      const onSignal = (): void => {
        out.line('stopping…');
        void stopAll().then(() => process.exit(0));
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);

      try {
        const bus = writeLocalBusCredentials(dir);
        nats = await startNatsServer({ config: bus.authorization });
        out.line(`nats-server   ${nats.url}`);
        const config: Record<string, unknown> = { instanceId: 'antidote-local', curriculumDir: flags.curriculum, tier: 'local', hepsDomain: 'localhost', ...base, natsUrl: nats.url };
        const kubernetes = (base.backendConfigs as { kubernetes?: Record<string, unknown> } | undefined)?.kubernetes;
        const ownCluster = Boolean(base.k8sOutOfClusterConfigPath || kubernetes?.outOfClusterConfigPath || kubernetes?.server || base.k8sInCluster === true);
        if (!ownCluster) {
          const kubeconfig = join(dir, 'kubeconfig');
          writeFileSync(kubeconfig, '');
          launch('kube-sim', [join(ROOT, 'tools', 'kube-sim', 'dist', 'main.js'), '--port', '0', '--kubeconfig', kubeconfig, '--secret', 'prod/tls-certificate', '--pod-start-delay', '300', '--job-run-delay', '300']);
          await waitFor(() => readFileSync(kubeconfig, 'utf8').includes('server:'), 'kube-sim', 15_000, deadChild);
          Object.assign(config, { k8sInCluster: false, k8sOutOfClusterConfigPath: kubeconfig });
          out.line(`kube-sim      ${(/server: (\S+)/.exec(readFileSync(kubeconfig, 'utf8')) ?? [])[1] ?? kubeconfig}`);
        }
        config.database ??= { url: `sqlite:${join(dir, 'antidote.sqlite')}` };
        const ports: Record<App, number> = { healthchecker: await freePort(), scheduler: await freePort(), reaper: await freePort(), api: Number(flags.apiPort) || (await freePort()) };
        config.httpPort = ports.api;
        config.ops = { ...(config.ops as object | undefined), host: '127.0.0.1', healthcheckerPort: ports.healthchecker, schedulerPort: ports.scheduler, reaperPort: ports.reaper };
        const configFile = join(dir, 'antidote-config.yml');
        writeFileSync(configFile, stringify(config));
        for (const app of APPS) {
          const { pid } = launch(app, [join(ROOT, 'apps', app, 'dist', 'main.js')], { ANTIDOTE_CONFIG: configFile, ...busLoginEnv(bus.credentials[app]) });
          await waitFor(() => ready(ports[app]), `${app} to be ready`, 60_000, deadChild);
          out.line(`${app.padEnd(13)} ready (ops http://127.0.0.1:${ports[app]}, pid ${pid})`);
        }
        const api = `http://127.0.0.1:${ports.api}`;
        out.data({ api, nats: nats.url, natsCredentials: bus.file, config: configFile, logs: join(dir, 'logs') }, () => [
          '',
          `Antidote is up: ${api}/exp/lesson`,
          `  try:  npx antictl lesson request linux-basics --api ${api}`,
          `  logs: ${join(dir, 'logs')}   config: ${configFile}`,
          `  NATS logins (admin for antictl): ${bus.file}`,
          'Ctrl-C stops everything.',
        ]);
      } catch (error) {
        await stopAll();
        throw error;
      }
      await new Promise<never>(() => undefined);
    });
}
