import { connect } from 'node:net';
import { withDeadline } from './deadline.js';
import { failure, timedOut, type ProbeOutcome, type ProbeTarget } from './probe.types.js';

/** Reachable when a TCP connection opens; closed at once. */
export function tcpProbe(target: ProbeTarget): Promise<ProbeOutcome> {
  const startedAt = Date.now();
  return withDeadline(
    target.timeoutMs,
    () => timedOut(startedAt, target.timeoutMs, 'TCP connection'),
    target.signal,
    (settle, onCleanup) => {
      const socket = connect({ host: target.host, port: target.port });
      onCleanup(() => socket.destroy());
      socket.once('connect', () => settle({ verdict: 'reachable', reachable: true, latencyMs: Date.now() - startedAt }));
      socket.once('error', (error) => settle(failure(error, startedAt)));
    },
  );
}
