import type { EndpointHealth, HealthTarget } from '@antidote/contracts';
import { describe, expect, it } from 'vitest';
import { FIRST_PAUSE_MS, MAX_PROBE_TIMEOUT_FACTOR, nextProbePause, nextProbeTimeout, waitUntilReachable, type ReachabilityProbe } from './wait-until-reachable.js';

describe('nextProbeTimeout', () => {
  it.each([
    { lastMs: 2000, configuredMs: 2000, next: 4000, why: 'doubles after a round that found nothing' },
    { lastMs: 16_000, configuredMs: 2000, next: 32_000, why: 'reaches the cap' },
    { lastMs: 32_000, configuredMs: 2000, next: 2000 * MAX_PROBE_TIMEOUT_FACTOR, why: 'never passes the cap' },
    { lastMs: 20_000, configuredMs: 2000, next: 32_000, why: 'an odd value is capped too' },
    { lastMs: 1, configuredMs: 1, next: 2, why: 'the smallest bound grows as well' },
  ])('$lastMs ms (configured $configuredMs) → $next ms: $why', ({ lastMs, configuredMs, next }) => {
    expect(nextProbeTimeout(lastMs, configuredMs)).toBe(next);
  });
});

describe('nextProbePause', () => {
  it.each([
    { lastMs: undefined, intervalMs: 1000, next: FIRST_PAUSE_MS, why: 'the first pause is short' },
    { lastMs: 100, intervalMs: 1000, next: 200, why: 'doubles' },
    { lastMs: 800, intervalMs: 1000, next: 1000, why: 'capped at the interval' },
    { lastMs: 1000, intervalMs: 1000, next: 1000, why: 'stays at the interval' },
    { lastMs: undefined, intervalMs: 50, next: 50, why: 'an interval shorter than the first pause wins' },
    { lastMs: undefined, intervalMs: 0, next: 0, why: 'no pause stays no pause' },
  ])('after $lastMs ms (interval $intervalMs) → $next ms: $why', ({ lastMs, intervalMs, next }) => {
    expect(nextProbePause(lastMs, intervalMs)).toBe(next);
  });
});

const target: HealthTarget = { name: 'vqfx1', host: '127.0.0.1', ports: [22], presentations: [] };
const health = (reachable: boolean): EndpointHealth => ({
  name: target.name,
  host: target.host,
  reachable,
  latencyMs: 1,
  probes: [{ target: 'port-22', kind: 'tcp', port: 22, verdict: reachable ? 'reachable' : 'timeout', reachable, latencyMs: 1 }],
});

/** An endpoint that answers only a probe given at least `needsMs` (a slow handshake on a loaded node). */
const slowEndpoint = (needsMs: number) => {
  const given: number[] = [];
  const probe: ReachabilityProbe = {
    timeoutMs: 2000,
    check: (_endpoint, options = {}) => {
      given.push(options.timeoutMs ?? 2000);
      return Promise.resolve(health((options.timeoutMs ?? 2000) >= needsMs));
    },
  };
  return { probe, given };
};

describe('waitUntilReachable', () => {
  it('gives a slow endpoint longer probes round after round until one is long enough', async () => {
    const { probe, given } = slowEndpoint(9000);
    const reply = await waitUntilReachable(probe, [target], { deadlineMs: 600_000, intervalMs: 0 });
    expect(reply).toMatchObject({ reachable: true, healthy: 1, total: 1 });
    expect(given).toEqual([2000, 4000, 8000, 16_000]);
  });

  it('never gives a probe more than the cap, and still reports the endpoint down at the deadline', async () => {
    const { probe, given } = slowEndpoint(Number.POSITIVE_INFINITY);
    const controller = new AbortController();
    const waiting = waitUntilReachable(probe, [target], { deadlineMs: 600_000, intervalMs: 0, signal: controller.signal });
    await expect.poll(() => given.length).toBeGreaterThan(8);
    controller.abort();
    const reply = await waiting;
    expect(reply.reachable).toBe(false);
    expect(Math.max(...given)).toBe(2000 * MAX_PROBE_TIMEOUT_FACTOR);
  });
});
