import { request } from 'node:http';
import { withDeadline } from './deadline.js';
import { failure, timedOut, type ProbeOutcome, type ProbeTarget } from './probe.types.js';

/**
 * A real HTTP GET of `/`: reachable on any status below `healthyBelow` (default 500), redirects not
 * followed. One deadline bounds connect and headers; the verdict is the status line, so the body is
 * not waited for (a server stalling mid-body is still up) and the connection is closed at once.
 */
export function httpProbe(target: ProbeTarget, healthyBelow = 500): Promise<ProbeOutcome> {
  const startedAt = Date.now();
  return withDeadline(
    target.timeoutMs,
    () => timedOut(startedAt, target.timeoutMs, 'HTTP response'),
    target.signal,
    (settle, onCleanup) => {
      const outgoing = request({
        host: target.host,
        port: target.port,
        path: '/',
        method: 'GET',
        agent: false,
        headers: { 'User-Agent': 'antidote-healthchecker', Connection: 'close' },
      });
      onCleanup(() => outgoing.destroy());
      outgoing.once('error', (error) => settle(failure(error, startedAt)));
      outgoing.once('response', (response) => {
        const status = response.statusCode ?? 0;
        const latencyMs = Date.now() - startedAt;
        response.destroy();
        settle(
          status < healthyBelow
            ? { verdict: 'reachable', reachable: true, latencyMs, httpStatus: status }
            : { verdict: 'bad-response', reachable: false, latencyMs, httpStatus: status, error: `HTTP ${status}` },
        );
      });
      outgoing.end();
    },
  );
}
