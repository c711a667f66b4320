import { setTimeout as sleep } from 'node:timers/promises';
import { endpointUp, type EndpointHealth, type HealthTarget, type WaitReachableReply } from '@antidote/contracts';
import { deadline } from '@antidote/concurrency';
import type { ProbeRunner } from '../probes/probe-runner.js';

export interface WaitOptions {
  deadlineMs: number;
  intervalMs: number;
  signal?: AbortSignal;
  /** Called as each endpoint comes up (healthy so far, total). */
  onProgress?: (endpoint: string, healthy: number, total: number) => void | Promise<void>;
}

/** How many times its configured timeout a probe may be given at the most (after rounds that found nothing). */
export const MAX_PROBE_TIMEOUT_FACTOR = 16;

/**
 * The time the next probe of an endpoint gets after a round that did not find it up: twice the last, up to
 * MAX_PROBE_TIMEOUT_FACTOR × the configured one. A refused port answers at once whatever the bound; an
 * endpoint whose handshake is slow (a loaded node, a device still booting) gets longer and longer, where a
 * fixed bound would time every attempt out until the deadline.
 */
export const nextProbeTimeout = (lastMs: number, configuredMs: number): number => Math.min(lastMs * 2, configuredMs * MAX_PROBE_TIMEOUT_FACTOR);

/** The first pause after a round that did not find an endpoint up. */
export const FIRST_PAUSE_MS = 100;

/**
 * The pause after a round that did not find an endpoint up: FIRST_PAUSE_MS, then twice the last, up to
 * `intervalMs`. An endpoint that comes up a moment after its port opened (a device finishing its boot) is
 * found within a fraction of that moment, not up to a whole interval late; one that boots for minutes is
 * probed once per interval after the first second, as before.
 */
export const nextProbePause = (lastMs: number | undefined, intervalMs: number): number => Math.min(lastMs === undefined ? FIRST_PAUSE_MS : lastMs * 2, intervalMs);

/** What the wait needs of the probes. */
export type ReachabilityProbe = Pick<ProbeRunner, 'timeoutMs' | 'check'>;

/**
 * Probes every endpoint until it is up once — reachable, and ready where it has a readiness check —
 * (then leaves it alone), pausing between rounds (`nextProbePause`, up to `intervalMs`; each probe bounded
 * by `nextProbeTimeout`), until all are up or the deadline passes. Every probe is bounded, every timer cleared, and an
 * abort ends it at once.
 */
export async function waitUntilReachable(runner: ReachabilityProbe, endpoints: readonly HealthTarget[], options: WaitOptions): Promise<WaitReachableReply> {
  const startedAt = Date.now();
  const endsAt = startedAt + options.deadlineMs;
  const { signal: stop, dispose } = deadline(Math.max(1, options.deadlineMs), options.signal);
  const last = new Map<string, EndpointHealth>();
  let healthy = 0;
  await Promise.all(
    endpoints.map(async (endpoint) => {
      let probeMs = runner.timeoutMs;
      let pauseMs: number | undefined;
      while (!stop.aborted) {
        const remaining = endsAt - Date.now();
        if (remaining <= 0) break;
        const budget = Math.min(remaining, probeMs);
        const health = await runner.check(endpoint, { signal: stop, timeoutMs: budget });
        // A round cut short by the deadline (aborted, or left under a quarter of a probe's time) says less than
        // the round before it: the reason keeps the earlier verdict unless this one is up.
        const cutShort = stop.aborted || budget < runner.timeoutMs / 4;
        if (!last.has(endpoint.name) || !cutShort || endpointUp(health)) last.set(endpoint.name, health);
        if (endpointUp(health)) {
          healthy++;
          await options.onProgress?.(endpoint.name, healthy, endpoints.length);
          return;
        }
        if (health.probes.length === 0) return; // nothing to probe (no ports): it never comes up
        probeMs = nextProbeTimeout(probeMs, runner.timeoutMs);
        pauseMs = nextProbePause(pauseMs, options.intervalMs);
        await sleep(pauseMs, undefined, { signal: stop }).catch(() => undefined);
      }
    }),
  ).finally(dispose);
  return {
    reachable: healthy === endpoints.length,
    healthy,
    total: endpoints.length,
    elapsedMs: Date.now() - startedAt,
    endpoints: endpoints.map((endpoint) => last.get(endpoint.name) ?? { name: endpoint.name, host: endpoint.host, reachable: false, latencyMs: 0, probes: [], error: 'not probed before the deadline' }),
  };
}
