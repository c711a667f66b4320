import { CliErrorCodes } from '@antidote/contracts/error-codes';
import type { Command } from 'commander';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import type { NatsServerProcess } from '@antidote/messaging/dev';
import { busLoginEnv, writeLocalBusCredentials } from '../bus-credentials.js';
import { removeLocalPlatform, STATE_DIR, writeLocalPlatform } from '../local-platform.js';
import { CliError, type Output } from '../output.js';
import { reasonFromLog } from '../up/app-log.js';
import { appRuntimeEnv } from '../up/app-runtime.js';
import { checkNotRunning, DATABASE_FILE, resetLocalDatabase } from '../up/local-state.js';
import { prepareStateFolder, PRIVATE_FILE_MODE } from '../up/state-folder.js';
import { withProgress } from '../up/progress.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const APPS = ['healthchecker', 'scheduler', 'reaper', 'api'] as const;
type App = (typeof APPS)[number];

interface UpOptions {
  config?: string;
  dir: string;
  apiPort?: string;
  curriculum: string;
  restart?: boolean;
}

interface Started {
  name: string;
  child: ChildProcess;
  /** The process is gone and everything it wrote is in its log. */
  ended: boolean;
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

/**
 * How long a start may take before antictl gives up on it. A process that exits is reported at once; these
 * bounds only catch one that hangs, so they are generous: on a loaded machine loading kube-sim or an app's
 * modules alone has taken more than 15 s.
 */
const KUBE_SIM_START_MS = 180_000;
const APP_START_MS = 180_000;

async function waitFor(check: () => Promise<boolean> | boolean, what: string, timeoutMs: number, dead: () => string | undefined): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const exited = dead();
    if (exited) throw new CliError(exited, 1, CliErrorCodes.processExited);
    if (await Promise.resolve(check()).catch(() => false)) return;
    await sleep(200);
  }
  throw new CliError(`timed out waiting for ${what}`, 1, CliErrorCodes.timeout);
}

/** Ready, and answered by the very process this `antictl up` started (its instance token), never another one on the port. */
const ready = async (port: number, token: string): Promise<boolean> => {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) });
  return response.ok && ((await response.json()) as { instance?: string }).instance === token;
};

/**
 * `antictl up`: the whole platform on this machine — a nats-server, kube-sim (unless the config names a
 * cluster), the four apps from their builds, SQLite under `--dir`, the sample curriculum. Every mistake
 * it can see (config, curriculum, a port in use, nats-server missing) ends it before anything starts.
 * Ctrl-C stops what it started, and nothing else.
 */
export function upCommand(program: Command, output: () => Output): void {
  program
    .command('up')
    .description('run the whole platform locally (nats-server, kube-sim, the four apps, SQLite, sample curriculum)')
    .option('--config <file>', 'an Antidote config to start from (its cluster, database, curriculum, httpPort)')
    .option('--dir <dir>', 'state, logs and generated config', STATE_DIR)
    .option('--api-port <port>', "API port (0: a free one; default: the config's httpPort, else 8086)")
    .option('--curriculum <dir>', 'curriculum to serve when the config names none', join(ROOT, 'examples', 'curriculum'))
    .option('--restart', 'start an app again when it exits, instead of stopping everything')
    .action(async (flags: UpOptions) => {
      const out = output();
      const dir = resolve(flags.dir);
      // Loaded here, not at start: the other commands do without them.
      const [{ INSTANCE_TOKEN_ENV }, { startNatsServer }, { checkBuilt, checkCurriculum, checkNatsServer, checkPortFree, parsePort, readUserConfig }] =
        await Promise.all([import('@antidote/config'), import('@antidote/messaging/dev'), import('../up/preflight.js')]);
      checkBuilt(ROOT, APPS);
      checkNotRunning(dir);
      const apiPortFlag = flags.apiPort === undefined ? undefined : parsePort(flags.apiPort, '--api-port');
      const defaults = { instanceId: 'antidote-local', curriculumDir: flags.curriculum, tier: 'local', hepsDomain: 'localhost' };
      const { base, config: checked } = readUserConfig(flags.config, defaults);
      checkNatsServer();
      const lessons = await withProgress(out, 'reading the curriculum', () => checkCurriculum(checked));
      out.line(`curriculum    ${checked.curriculumDir} (${lessons} lessons)`);
      const apiHost = (base.api as { host?: string } | undefined)?.host ?? '127.0.0.1';
      const apiPort = apiPortFlag ?? checked.httpPort;
      await checkPortFree(
        apiPort,
        apiHost,
        apiPortFlag === undefined && base.httpPort !== undefined ? `--api-port (or httpPort in ${flags.config})` : '--api-port',
      );
      prepareStateFolder(dir);
      const started: Started[] = [];
      let nats: NatsServerProcess | undefined;
      let running = false;
      let stopping = false;
      const stopAll = async (): Promise<void> => {
        stopping = true;
        removeLocalPlatform(dir);
        for (const { child } of [...started].reverse()) {
          if (child.exitCode !== null || child.signalCode !== null) continue;
          child.kill('SIGTERM');
          await Promise.race([new Promise((done) => child.once('exit', done)), sleep(10_000).then(() => child.kill('SIGKILL'))]);
        }
        await nats?.stop();
      };
      const logOf = (name: string): string => join(dir, 'logs', `${name}.log`);
      const exitOf = ({ name, child }: Started, when: string): string => {
        const reason = reasonFromLog(logOf(name));
        return `${name} exited (${child.signalCode ?? child.exitCode}) ${when}${reason ? `: ${reason}` : ''} (log ${relative(process.cwd(), logOf(name)) || logOf(name)})`;
      };
      const deadChild = (): string | undefined => {
        const dead = started.find(({ ended }) => ended);
        return dead && exitOf(dead, 'while starting');
      };
      const launch = (name: string, args: string[], env: Record<string, string> = {}): ChildProcess => {
        const log = createWriteStream(logOf(name), { flags: 'a', mode: PRIVATE_FILE_MODE });
        // An IPC channel the child only watches: should antictl end without stopping it (killed), the channel
        // closes and the child stops itself.
        const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
        child.stdout?.pipe(log, { end: false });
        child.stderr?.pipe(log, { end: false });
        const entry: Started = { name, child, ended: false };
        child.once('close', () =>
          log.end(() => {
            entry.ended = true;
            // While starting, the start-up wait reports a process that exits (with its reason) and stops the rest.
            if (stopping || !running) return;
            if (flags.restart && (APPS as readonly string[]).includes(name)) {
              started.splice(started.indexOf(entry), 1);
              out.line(`${name} exited (${child.signalCode ?? child.exitCode}); restarted (pid ${launch(name, args, env).pid})`);
              return;
            }
            out.line(`${exitOf(entry, 'unexpectedly')}. Stopping everything.`);
            void stopAll().then(() => process.exit(1));
          }),
        );
        started.push(entry);
        return child;
      };
      const onSignal = (): void => {
        if (stopping) return;
        out.line('stopping…');
        void stopAll().then(() => process.exit(0));
      };
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, onSignal);
      // Run by a supervisor over an IPC channel (a test harness): when it ends, even killed, so does the platform.
      if (process.channel) {
        process.channel.unref();
        process.once('disconnect', onSignal);
      }
      // Should antictl itself fail, what it started does not outlive it.
      process.once('exit', () => started.forEach(({ child }) => child.exitCode === null && child.signalCode === null && child.kill('SIGTERM')));

      try {
        const bus = writeLocalBusCredentials(dir);
        nats = await startNatsServer({ config: bus.authorization });
        out.line(`nats-server   ${nats.url}`);
        const config: Record<string, unknown> = { ...defaults, ...base, natsUrl: nats.url };
        const kubernetes = (base.backendConfigs as { kubernetes?: Record<string, unknown> } | undefined)?.kubernetes;
        const ownCluster = Boolean(base.k8sOutOfClusterConfigPath || kubernetes?.outOfClusterConfigPath || kubernetes?.server || base.k8sInCluster === true);
        if (!ownCluster) {
          const kubeconfig = join(dir, 'kubeconfig');
          // Emptied, so that a kubeconfig an earlier run left is not taken for this run's; kube-sim writes it (0600) once it listens.
          writeFileSync(kubeconfig, '', { mode: PRIVATE_FILE_MODE });
          launch('kube-sim', [
            join(ROOT, 'tools', 'kube-sim', 'dist', 'main.js'),
            '--port',
            '0',
            '--kubeconfig',
            kubeconfig,
            '--secret',
            'prod/tls-certificate',
            '--pod-start-delay',
            '300',
            '--job-run-delay',
            '300',
          ]);
          await withProgress(out, 'starting kube-sim', () =>
            waitFor(() => readFileSync(kubeconfig, 'utf8').includes('server:'), 'kube-sim', KUBE_SIM_START_MS, deadChild),
          );
          Object.assign(config, { k8sInCluster: false, k8sOutOfClusterConfigPath: kubeconfig });
          out.line(`kube-sim      ${(/server: (\S+)/.exec(readFileSync(kubeconfig, 'utf8')) ?? [])[1] ?? kubeconfig}`);
        }
        const database = base.database as { url?: string } | undefined;
        if (!database?.url) {
          config.database = { ...database, url: `sqlite:${join(dir, DATABASE_FILE)}` };
          if (!ownCluster) out.line(`database      ${resetLocalDatabase(dir)} (new: kube-sim keeps nothing between runs, so neither does the local database)`);
        }
        const ports: Record<App, number> = {
          healthchecker: await freePort(),
          scheduler: await freePort(),
          reaper: await freePort(),
          api: apiPort || (await freePort()),
        };
        const adminToken = checked.api.adminToken || randomBytes(24).toString('base64url');
        config.httpPort = ports.api;
        config.api = { ...(config.api as object | undefined), host: apiHost, adminToken };
        config.ops = {
          ...(config.ops as object | undefined),
          host: '127.0.0.1',
          healthcheckerPort: ports.healthchecker,
          schedulerPort: ports.scheduler,
          reaperPort: ports.reaper,
        };
        const configFile = join(dir, 'antidote-config.yml');
        writeFileSync(configFile, stringify(config), { mode: 0o600 });
        for (const app of APPS) {
          const token = newToken();
          const { pid } = launch(app, [join(ROOT, 'apps', app, 'dist', 'main.js')], {
            ...appRuntimeEnv(process.env),
            ANTIDOTE_CONFIG: configFile,
            [INSTANCE_TOKEN_ENV]: token,
            ...busLoginEnv(bus.credentials[app]),
          });
          await withProgress(out, `starting ${app}`, () => waitFor(() => ready(ports[app], token), `${app} to be ready`, APP_START_MS, deadChild));
          out.line(`${app.padEnd(13)} ready (ops http://127.0.0.1:${ports[app]}, pid ${pid})`);
        }
        const api = `http://127.0.0.1:${ports.api}`;
        const platformFile = writeLocalPlatform(dir, { api, nats: nats.url, natsCredentials: bus.file, adminToken, pid: process.pid });
        running = true;
        const here = dir === resolve(STATE_DIR);
        out.data(
          { api, web: `${api}/`, nats: nats.url, natsCredentials: bus.file, config: configFile, logs: join(dir, 'logs'), platform: platformFile },
          () => [
            '',
            `Antidote is up: ${api}/exp/lesson`,
            `  web:  ${api}/   (the learner's labs in the browser)`,
            `  try:  npx antictl lesson request linux-basics${here ? '' : ` --api ${api}`}`,
            `        npx antictl lesson list${here ? '' : ` --api ${api} --token <api.adminToken in ${configFile}>`}`,
            `  logs: ${join(dir, 'logs')}   config: ${configFile}`,
            `  NATS logins (admin for antictl): ${bus.file}`,
            'Ctrl-C stops everything.',
          ],
        );
      } catch (error) {
        await stopAll();
        throw error;
      }
      await new Promise<never>(() => undefined);
    });
}

const newToken = (): string => randomBytes(12).toString('hex');
