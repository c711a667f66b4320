import { withDeadline } from '../probes/deadline.js';
import type { ProbeOutcome, ProbeTarget } from '../probes/probe.types.js';
import { sshProbeThen, type SshCredentials } from '../probes/ssh.probe.js';
import type { FetchOutcome } from './readiness-fetch.js';
import { execAndCollect, noAnswer, settleOnConnectionLoss } from './ssh-exec.js';

/**
 * An SSH probe whose connection, once logged in, runs the readiness command too: one connection and one
 * login for both. The login is bounded by the probe's timeout, the command after it by the same timeout
 * again (as a separate readiness fetch would be). A refused login is the command's "no answer".
 */
export async function sshProbeWithCommand(
  target: ProbeTarget,
  credentials: SshCredentials,
  command: string,
): Promise<{ outcome: ProbeOutcome; answer: FetchOutcome }> {
  const { outcome, after } = await sshProbeThen<FetchOutcome>(target, credentials, {
    loggedIn: ({ socket, client }) =>
      withDeadline<FetchOutcome>(
        target.timeoutMs,
        () => noAnswer(command, target.timeoutMs),
        target.signal,
        (settle) => {
          settleOnConnectionLoss(socket, client, settle);
          execAndCollect(client, command, settle);
        },
      ),
    refused: (why) => ({ ok: false, error: why }),
  });
  return { outcome, answer: after ?? { ok: false, error: outcome.error ?? outcome.verdict } };
}
