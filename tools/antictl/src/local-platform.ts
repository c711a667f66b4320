import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** What `antictl up` tells the other commands about the platform it runs (`.antidote/platform.json`, mode 0600). */
export interface LocalPlatform {
  api: string;
  nats: string;
  /** The NATS logins `antictl up` generated (its `admin` one is antictl's). */
  natsCredentials: string;
  adminToken: string;
  /** The `antictl up` process: a file whose process is gone describes no platform. */
  pid: number;
}

export const PLATFORM_FILE = 'platform.json';
/** The folder `antictl up` keeps its state in, by default. */
export const STATE_DIR = '.antidote';

export function writeLocalPlatform(dir: string, platform: LocalPlatform): string {
  const file = join(dir, PLATFORM_FILE);
  writeFileSync(file, `${JSON.stringify(platform, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // an older file keeps its mode through writeFileSync
  return file;
}

export function removeLocalPlatform(dir: string): void {
  rmSync(join(dir, PLATFORM_FILE), { force: true });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The platform the `antictl up` with state folder `stateDir` runs, while that `antictl up` still runs. */
export function readLocalPlatform(stateDir: string): LocalPlatform | undefined {
  const file = join(stateDir, PLATFORM_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const platform = JSON.parse(readFileSync(file, 'utf8')) as LocalPlatform;
    return alive(platform.pid) ? platform : undefined;
  } catch {
    return undefined; // an unreadable file describes no platform
  }
}

/** The platform `antictl up` runs for this folder: `.antidote/` here or in the nearest parent that has a running one. */
export function findLocalPlatform(from = process.cwd()): LocalPlatform | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const platform = readLocalPlatform(join(dir, STATE_DIR));
    if (platform) return platform;
    if (dirname(dir) === dir) return undefined;
  }
}

export interface Target {
  api: string;
  token: string;
  nats: string;
}

/**
 * Where a command goes: its flags, else `ANTIDOTE_API` / `ANTIDOTE_ADMIN_TOKEN` / `ANTIDOTE_NATS_URL`,
 * else the platform `antictl up` runs here, else the defaults. The local admin token is only ever sent
 * to the local platform's own api.
 */
export function resolveTarget(flags: { api?: string; token?: string; nats?: string }, env = process.env, local = findLocalPlatform()): Target {
  const api = (flags.api ?? env.ANTIDOTE_API ?? local?.api ?? 'http://127.0.0.1:8086').replace(/\/+$/, '');
  const localToken = local && local.api === api ? local.adminToken : '';
  return {
    api,
    token: flags.token ?? env.ANTIDOTE_ADMIN_TOKEN ?? localToken,
    nats: flags.nats ?? env.ANTIDOTE_NATS_URL ?? local?.nats ?? 'nats://127.0.0.1:4222',
  };
}
