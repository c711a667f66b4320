import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { watchStarter } from '@antidote/messaging/dev';

export interface PostgresProcess {
  /** Admin URL (database `postgres`). */
  url: string;
  port: number;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /**
   * Stops and starts the server on the same port and data; down for `downFor` ms, or until the promise
   * it returns settles. `immediate`: no clean shutdown (as a crash: connections cut, recovery at start).
   */
  restart(downFor?: number | (() => Promise<unknown>), mode?: 'fast' | 'immediate'): Promise<void>;
  stop(): Promise<void>;
}

const PG_BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

/** The PostgreSQL server binaries on this machine, if any. */
export function postgresBinDir(): string | undefined {
  return PG_BIN_DIRS.find((dir) => existsSync(join(dir, 'initdb')));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function asPostgres(bin: string, args: string[]): void {
  const command = join(bin, args[0]);
  const asRoot = process.getuid?.() === 0;
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args.slice(1)], { encoding: 'utf8' })
    : spawnSync(command, args.slice(1), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr || result.stdout}`);
}

/** The same, without blocking this process's event loop (kube-sim and the test's clients keep answering meanwhile). */
function asPostgresAsync(bin: string, args: string[]): Promise<void> {
  const command = join(bin, args[0]);
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args.slice(1)]] : [command, args.slice(1)];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { encoding: 'utf8' }, (error, stdout, stderr) => (error ? reject(new Error(`${args[0]} failed: ${stderr || stdout}`)) : resolve()));
  });
}

let databaseCounter = 0;

async function createDatabaseAt(adminUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${databaseCounter++}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A throwaway PostgreSQL cluster on loopback: trust auth, fsync off, about 1 s to start. */
export async function startPostgres(): Promise<PostgresProcess> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found (expected /usr/lib/postgresql/<version>/bin)');
  const dir = mkdtempSync(join(tmpdir(), 'antidote-pg-'));
  // pg_ctl detaches the server: when this process is killed or ends past its exit hooks (a test runner's
  // worker), the watchdog stops it (SIGQUIT: PostgreSQL's immediate shutdown) and removes its folder.
  const watchdog = watchStarter(dir, 'SIGQUIT', ['postgres', 'pg_ctl', 'initdb']);
  const data = join(dir, 'data');
  mkdirSync(data);
  if (process.getuid?.() === 0) {
    spawnSync('chown', ['-R', 'postgres:postgres', dir]);
  }
  asPostgres(bin, ['initdb', '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const port = await freePort();
  const startArgs = [
    'pg_ctl',
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=300`,
    'start',
  ];
  const stopArgs = (mode: 'fast' | 'immediate'): string[] => ['pg_ctl', '-D', data, '-m', mode, '-w', 'stop'];
  const stopServer = (): void => asPostgres(bin, stopArgs('fast'));
  asPostgres(bin, startArgs);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    createDatabase: (prefix = 'antidote') => createDatabaseAt(url, prefix),
    async restart(downFor = 0, mode = 'fast') {
      await asPostgresAsync(bin, stopArgs(mode));
      try {
        if (typeof downFor === 'function') await downFor();
        else if (downFor > 0) await sleep(downFor);
      } finally {
        await asPostgresAsync(bin, startArgs);
      }
    },
    stop() {
      try {
        stopServer();
      } finally {
        rmSync(dir, { recursive: true, force: true });
        watchdog.release();
      }
      return Promise.resolve();
    },
  };
}

/** The shared server CI started (`ANTIDOTE_TEST_PG_URL`), as a PostgresProcess that cannot be restarted. */
export function externalPostgres(adminUrl: string): PostgresProcess {
  return {
    url: adminUrl,
    port: Number(new URL(adminUrl).port || 5432),
    createDatabase: (prefix = 'antidote') => createDatabaseAt(adminUrl, prefix),
    restart: () => Promise.reject(new Error('the shared PostgreSQL cannot be restarted; use startPostgres()')),
    stop: () => Promise.resolve(),
  };
}
