import { withDeadline } from '../probes/deadline.js';
import { sshOpener } from '../probes/ssh-connection.js';
import type { FetchOutcome, FetchTarget } from './readiness-fetch.js';
import { execAndCollect, noAnswer, settleOnConnectionLoss } from './ssh-exec.js';

/**
 * Logs in over SSH and runs one command (an `exec` request), collecting what it prints (stdout and
 * stderr, at most `READINESS_LIMITS.input` characters) until the channel closes. One deadline bounds it all.
 */
export async function sshCommand(target: FetchTarget, command: string, credentials: { username?: string; password?: string }): Promise<FetchOutcome> {
  const openSsh = await sshOpener();
  return withDeadline<FetchOutcome>(
    target.timeoutMs,
    () => noAnswer(command, target.timeoutMs),
    target.signal,
    (settle, onCleanup) => {
      const { socket, client, login } = openSsh(target, onCleanup);
      settleOnConnectionLoss(socket, client, settle);
      client.once('ready', () => execAndCollect(client, command, settle));
      socket.once('connect', () => login(credentials.username ?? '', credentials.password ?? ''));
    },
  );
}
