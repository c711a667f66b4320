import { READINESS_LIMITS } from '@antidote/contracts';
import { withDeadline } from '../probes/deadline.js';
import { sshOpener } from '../probes/ssh-connection.js';
import type { FetchOutcome, FetchTarget } from './readiness-fetch.js';

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Logs in over SSH and runs one command (an `exec` request), collecting what it prints (stdout and
 * stderr, at most `READINESS_LIMITS.input` characters) until the channel closes. One deadline bounds it all.
 */
export async function sshCommand(target: FetchTarget, command: string, credentials: { username?: string; password?: string }): Promise<FetchOutcome> {
  const openSsh = await sshOpener();
  return withDeadline<FetchOutcome>(target.timeoutMs, () => ({ ok: false, error: `no answer to "${command}" within ${target.timeoutMs} ms` }), target.signal, (settle, onCleanup) => {
    const { socket, client, login } = openSsh(target, onCleanup);
    let output = '';
    const collect = (data: Buffer): void => {
      if (output.length < READINESS_LIMITS.input) output += data.toString('utf8').slice(0, READINESS_LIMITS.input - output.length);
    };
    socket.once('error', (error) => settle({ ok: false, error: message(error) }));
    client.once('error', (error) => settle({ ok: false, error: message(error) }));
    client.once('close', () => settle({ ok: false, error: 'connection closed before the command ended' }));
    client.once('ready', () => {
      client.exec(command, (error, stream) => {
        if (error) return settle({ ok: false, error: message(error) });
        stream.on('data', collect);
        stream.stderr.on('data', collect);
        stream.once('close', () => settle({ ok: true, text: output }));
      });
    });
    socket.once('connect', () => login(credentials.username ?? '', credentials.password ?? ''));
  });
}
