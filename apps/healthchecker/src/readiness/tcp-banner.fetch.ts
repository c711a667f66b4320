import { connect } from 'node:net';
import { READINESS_LIMITS } from '@antidote/contracts';
import { withDeadline } from '../probes/deadline.js';
import type { FetchOutcome, FetchTarget } from './readiness-fetch.js';

/** Connects and reads the first line the endpoint sends (its banner; at most `READINESS_LIMITS.input` characters). */
export function tcpBanner(target: FetchTarget): Promise<FetchOutcome> {
  return withDeadline<FetchOutcome>(
    target.timeoutMs,
    () => ({ ok: false, error: `no banner within ${target.timeoutMs} ms` }),
    target.signal,
    (settle, onCleanup) => {
      const socket = connect({ host: target.host, port: target.port });
      onCleanup(() => socket.destroy());
      let banner = '';
      socket.on('data', (data: Buffer) => {
        banner += data.toString('utf8');
        const end = banner.indexOf('\n');
        if (end !== -1 || banner.length >= READINESS_LIMITS.input)
          settle({ ok: true, text: banner.slice(0, end === -1 ? READINESS_LIMITS.input : end).replace(/\r$/, '') });
      });
      socket.once('end', () => settle({ ok: true, text: banner.slice(0, READINESS_LIMITS.input) }));
      socket.once('error', (error) => settle({ ok: false, error: error.message }));
    },
  );
}
