import { request } from 'node:http';
import { withDeadline } from '../probes/deadline.js';
import type { FetchOutcome, FetchTarget } from './readiness-fetch.js';

/** A GET of `path`: its status line is the answer (the body is not waited for; the connection closes at once). */
export function httpStatus(target: FetchTarget, path: string): Promise<FetchOutcome> {
  return withDeadline<FetchOutcome>(
    target.timeoutMs,
    () => ({ ok: false, error: `no HTTP response within ${target.timeoutMs} ms` }),
    target.signal,
    (settle, onCleanup) => {
      const outgoing = request({
        host: target.host,
        port: target.port,
        path,
        method: 'GET',
        agent: false,
        headers: { 'User-Agent': 'antidote-healthchecker', Connection: 'close' },
      });
      onCleanup(() => outgoing.destroy());
      outgoing.once('error', (error) => settle({ ok: false, error: error.message }));
      outgoing.once('response', (response) => {
        response.destroy();
        settle({ ok: true, status: response.statusCode ?? 0 });
      });
      outgoing.end();
    },
  );
}
