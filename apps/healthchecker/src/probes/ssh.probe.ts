import type { Socket } from 'node:net';
import type ssh2 from 'ssh2';
import { withDeadline } from './deadline.js';
import { failure, timedOut, type ProbeOutcome, type ProbeTarget } from './probe.types.js';
import { sshOpener } from './ssh-connection.js';

export interface SshCredentials {
  username?: string;
  password?: string;
}

/** A logged-in SSH connection, lent to what runs on it after the probe's login. */
export interface SshSession {
  socket: Socket;
  client: ssh2.Client;
}

/** What runs after the probe's login on the same connection (bounding itself), before it is closed. */
export interface AfterSshLogin<T> {
  loggedIn(session: SshSession): Promise<T>;
  /** The login was refused; `why` is the SSH client's reason. */
  refused(why: string): T;
}

/** Used when the image has no SSH credentials: any SSH server rejecting it proves it is up. */
const PROBE_USER = 'antidote-probe';

/**
 * A real SSH handshake and login. Logged in → reachable; login refused → reachable with verdict
 * `credentials-rejected`; not speaking SSH → `bad-response`. One deadline bounds connect, banner,
 * key exchange and authentication (a server that sends its banner and then stalls included).
 */
export async function sshProbe(target: ProbeTarget, credentials: SshCredentials = {}): Promise<ProbeOutcome> {
  return (await sshProbeThen(target, credentials)).outcome;
}

/**
 * The SSH probe, then — once logged in, or refused — `after` on the same connection. The probe's verdict
 * and latency (the time to login) are the probe's alone; the connection is closed once both are done.
 */
export async function sshProbeThen<T>(
  target: ProbeTarget,
  credentials: SshCredentials,
  after?: AfterSshLogin<T>,
): Promise<{ outcome: ProbeOutcome; after?: T }> {
  const openSsh = await sshOpener();
  const teardown: (() => void)[] = [];
  let session: SshSession | undefined;
  let refusal = '';
  const startedAt = Date.now();
  try {
    const outcome = await withDeadline(
      target.timeoutMs,
      () => timedOut(startedAt, target.timeoutMs, 'SSH login'),
      target.signal,
      (settle) => {
        const { socket, client, login } = openSsh(target, (cleanup) => teardown.push(cleanup));
        socket.once('error', (error) => settle(failure(error, startedAt)));
        socket.once('connect', () => {
          client.once('ready', () => {
            session = { socket, client };
            settle({ verdict: 'reachable', reachable: true, latencyMs: Date.now() - startedAt });
          });
          client.once('error', (error: Error & { level?: string }) => {
            const latencyMs = Date.now() - startedAt;
            if (error.level === 'client-authentication') {
              refusal = error.message;
              settle({ verdict: 'credentials-rejected', reachable: true, latencyMs, error: 'SSH server reachable, credentials rejected' });
            } else if (error.level === 'protocol' || error.level === 'handshake' || /handshake|protocol|ident/i.test(error.message)) {
              settle({ verdict: 'bad-response', reachable: false, latencyMs, error: `not an SSH server: ${error.message}` });
            } else {
              settle(failure(error, startedAt));
            }
          });
          client.once('close', () =>
            settle({ verdict: 'bad-response', reachable: false, latencyMs: Date.now() - startedAt, error: 'connection closed during the SSH handshake' }),
          );
          login(credentials.username || PROBE_USER, credentials.password ?? '');
        });
      },
    );
    if (outcome.verdict === 'reachable' && session && after) return { outcome, after: await after.loggedIn(session) };
    if (outcome.verdict === 'credentials-rejected' && after) return { outcome, after: after.refused(refusal) };
    return { outcome };
  } finally {
    for (const cleanup of teardown) cleanup();
  }
}
