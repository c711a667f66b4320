import type { Socket } from 'node:net';
import { READINESS_LIMITS } from '@antidote/contracts';
import type ssh2 from 'ssh2';
import type { FetchOutcome } from './readiness-fetch.js';

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What a command that did not answer in time is told. */
export const noAnswer = (command: string, timeoutMs: number): FetchOutcome => ({ ok: false, error: `no answer to "${command}" within ${timeoutMs} ms` });

/** Settles with why the connection failed or ended, should it do so before the command's channel closes. */
export function settleOnConnectionLoss(socket: Socket, client: ssh2.Client, settle: (outcome: FetchOutcome) => void): void {
  socket.once('error', (error) => settle({ ok: false, error: message(error) }));
  client.once('error', (error) => settle({ ok: false, error: message(error) }));
  client.once('close', () => settle({ ok: false, error: 'connection closed before the command ended' }));
}

/**
 * Runs one command (an `exec` request) on a logged-in client and settles with what it printed (stdout
 * and stderr, at most `READINESS_LIMITS.input` characters) once its channel closes.
 */
export function execAndCollect(client: ssh2.Client, command: string, settle: (outcome: FetchOutcome) => void): void {
  let output = '';
  const collect = (data: Buffer): void => {
    if (output.length < READINESS_LIMITS.input) output += data.toString('utf8').slice(0, READINESS_LIMITS.input - output.length);
  };
  client.exec(command, (error, stream) => {
    if (error) return settle({ ok: false, error: message(error) });
    stream.on('data', collect);
    stream.stderr.on('data', collect);
    stream.once('close', () => settle({ ok: true, text: output }));
  });
}
