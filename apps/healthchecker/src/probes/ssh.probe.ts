import { withDeadline } from './deadline.js';
import { failure, timedOut, type ProbeOutcome, type ProbeTarget } from './probe.types.js';
import { sshOpener } from './ssh-connection.js';

export interface SshCredentials {
  username?: string;
  password?: string;
}

/** Used when the image has no SSH credentials: any SSH server rejecting it proves it is up. */
const PROBE_USER = 'antidote-probe';

/**
 * A real SSH handshake and login. Logged in → reachable; login refused → reachable with verdict
 * `credentials-rejected`; not speaking SSH → `bad-response`. One deadline bounds connect, banner,
 * key exchange and authentication (a server that sends its banner and then stalls included).
 */
export async function sshProbe(target: ProbeTarget, credentials: SshCredentials = {}): Promise<ProbeOutcome> {
  const openSsh = await sshOpener();
  const startedAt = Date.now();
  return withDeadline(target.timeoutMs, () => timedOut(startedAt, target.timeoutMs, 'SSH login'), target.signal, (settle, onCleanup) => {
    const { socket, client, login } = openSsh(target, onCleanup);
    socket.once('error', (error) => settle(failure(error, startedAt)));
    socket.once('connect', () => {
      client.once('ready', () => settle({ verdict: 'reachable', reachable: true, latencyMs: Date.now() - startedAt }));
      client.once('error', (error: Error & { level?: string }) => {
        const latencyMs = Date.now() - startedAt;
        if (error.level === 'client-authentication') {
          settle({ verdict: 'credentials-rejected', reachable: true, latencyMs, error: 'SSH server reachable, credentials rejected' });
        } else if (error.level === 'protocol' || error.level === 'handshake' || /handshake|protocol|ident/i.test(error.message)) {
          settle({ verdict: 'bad-response', reachable: false, latencyMs, error: `not an SSH server: ${error.message}` });
        } else {
          settle(failure(error, startedAt));
        }
      });
      client.once('close', () => settle({ verdict: 'bad-response', reachable: false, latencyMs: Date.now() - startedAt, error: 'connection closed during the SSH handshake' }));
      login(credentials.username || PROBE_USER, credentials.password ?? '');
    });
  });
}
