import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { watchStarter } from './starter-watchdog.js';

export interface NatsServerOptions {
  /** 0 or absent: a free port. */
  port?: number;
  host?: string;
  jetstream?: boolean;
  user?: string;
  password?: string;
  token?: string;
  /** A nats-server config (e.g. `natsAuthorizationConfig(...)`), written beside the server with mode 0600. */
  config?: string;
  /** Variables the server's config reads (`$NAME`), on top of this process's environment. */
  env?: Record<string, string>;
  /** Binary to run (default `nats-server` on PATH). */
  binary?: string;
}

export interface NatsServerProcess {
  url: string;
  port: number;
  pid: number;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
  /**
   * Stops the server and starts it again on the same port (clients must reconnect). It stays down for
   * `downFor` ms, or until `downFor()` resolves — what a test waits to see while the server is down.
   */
  restart(downFor?: number | (() => Promise<unknown>)): Promise<void>;
}

/** Whether `nats-server` can be run here, and its version line. */
export function natsServerVersion(binary = 'nats-server'): string | undefined {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** The ports file, or undefined while nats-server is still writing it (seen empty or cut short). */
function readPorts(path: string): { nats?: string[] } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { nats?: string[] };
  } catch {
    return undefined;
  }
}

async function waitForPortsFile(dir: string, child: ChildProcess, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nats-server exited with code ${child.exitCode}; see ${join(dir, 'log')}`);
    const file = readdirSync(dir).find((name) => name.endsWith('.ports'));
    const first = file ? readPorts(join(dir, file))?.nats?.[0] : undefined;
    if (first) return Number(new URL(first).port);
    await sleep(20);
  }
  throw new Error(`nats-server did not report its port within ${timeoutMs} ms`);
}

const SETPRIV = '/usr/bin/setpriv';

function launch(dir: string, options: NatsServerOptions, port: number): ChildProcess {
  const args = ['-a', options.host ?? '127.0.0.1', '-p', String(port === 0 ? -1 : port), '--ports_file_dir', dir, '-l', join(dir, 'log')];
  if (options.jetstream) args.push('-js', '-sd', join(dir, 'js'));
  if (options.user) args.push('--user', options.user, '--pass', options.password ?? '');
  if (options.token) args.push('--auth', options.token);
  if (options.config !== undefined) {
    writeFileSync(join(dir, 'nats.conf'), options.config, { mode: 0o600 });
    args.push('-c', join(dir, 'nats.conf'));
  }
  const binary = options.binary ?? 'nats-server';
  // Killed, the process that started it cannot stop it: where util-linux's setpriv is at hand, the kernel
  // sends the server SIGTERM when its starter dies (setpriv execs the server: the pid stays the server's).
  const child = existsSync(SETPRIV)
    ? spawn(SETPRIV, ['--pdeathsig', 'TERM', '--', binary, ...args], { stdio: 'ignore', env: { ...process.env, ...options.env } })
    : spawn(binary, args, { stdio: 'ignore', env: { ...process.env, ...options.env } });
  child.on('error', () => undefined);
  // However else the process that started it ends without stop() (an uncaught error, process.exit, a
  // broken pipe), the server ends with it rather than holding its port as an orphan.
  const endWithStarter = (): void => void child.kill('SIGTERM');
  process.once('exit', endWithStarter);
  child.once('exit', () => process.off('exit', endWithStarter));
  return child;
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** Starts a real nats-server on loopback and reads back its port (about 60 ms). */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'antidote-nats-'));
  // Killed, this process leaves neither the server nor its folder behind.
  const watchdog = watchStarter(dir, 'SIGTERM', [basename(options.binary ?? 'nats-server')]);
  let child = launch(dir, options, options.port ?? 0);
  const port = await waitForPortsFile(dir, child, 60_000);
  const clearPorts = (): void => {
    for (const name of readdirSync(dir)) if (name.endsWith('.ports')) rmSync(join(dir, name));
  };
  const handle: NatsServerProcess = {
    url: `nats://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    get pid() {
      return child.pid ?? -1;
    },
    async stop() {
      await terminate(child);
      rmSync(dir, { recursive: true, force: true });
      watchdog.release();
    },
    async restart(downFor = 0) {
      await terminate(child);
      clearPorts();
      if (typeof downFor === 'function') await downFor();
      else if (downFor > 0) await sleep(downFor);
      child = launch(dir, options, port);
      await waitForPortsFile(dir, child, 60_000);
    },
  };
  return handle;
}
