import { CliErrorCodes } from '@antidote/contracts/error-codes';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readLocalPlatform } from '../local-platform.js';
import { CliError } from '../output.js';

export const DATABASE_FILE = 'antidote.sqlite';

/** One `antictl up` per state folder: a second one would reset the database under the first. */
export function checkNotRunning(dir: string): void {
  const running = readLocalPlatform(dir);
  if (running)
    throw new CliError(
      `Antidote already runs from ${dir} (antictl up, pid ${running.pid}, ${running.api}): stop it first, or use another --dir`,
      1,
      CliErrorCodes.alreadyRunning,
    );
}

/**
 * kube-sim keeps its objects in memory, so the live lessons a database kept from an earlier run would
 * point at namespaces that are gone: the local database starts afresh with it (the curriculum is
 * imported again at start).
 */
export function resetLocalDatabase(dir: string): string {
  const file = join(dir, DATABASE_FILE);
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
  return file;
}
