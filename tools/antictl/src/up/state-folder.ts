import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folders of the state folder: this user's only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files of the state folder (database, logs, kubeconfig, credentials, config): this user's only. */
export const PRIVATE_FILE_MODE = 0o600;

/** What `antictl up` writes in its state folder, besides `logs/*.log` (the database with its SQLite companions). */
const STATE_FILE = /^(antidote\.sqlite(-wal|-shm|-journal)?|kubeconfig|nats-credentials\.json|antidote-config\.yml|platform\.json)$/;

/** chmod, but never through a symbolic link, and not on something that is gone. */
function restrict(path: string, mode: number, directory: boolean): void {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat && !stat.isSymbolicLink() && stat.isDirectory() === directory) chmodSync(path, mode);
}

/**
 * The state folder of `antictl up` for this user alone: it holds the database (session ids, device
 * passwords), the kubeconfig with kube-sim's admin token, the NATS logins and the api's admin token.
 * The folder and `logs/` are made 0700 and the files `antictl up` writes there 0600, also those an
 * earlier run left (only those: `--dir` may name a folder holding other things); and from now on this
 * process and everything it starts create files for this user only (umask 077), whatever the user's
 * umask is.
 */
export function prepareStateFolder(dir: string): void {
  const logs = join(dir, 'logs');
  mkdirSync(logs, { recursive: true, mode: PRIVATE_DIR_MODE });
  restrict(dir, PRIVATE_DIR_MODE, true);
  restrict(logs, PRIVATE_DIR_MODE, true);
  for (const name of readdirSync(dir)) if (STATE_FILE.test(name)) restrict(join(dir, name), PRIVATE_FILE_MODE, false);
  for (const name of readdirSync(logs)) if (name.endsWith('.log')) restrict(join(logs, name), PRIVATE_FILE_MODE, false);
  process.umask(0o077);
}
