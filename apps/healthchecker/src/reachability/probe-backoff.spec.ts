import { describe, expect, it } from 'vitest';
import { FIRST_PAUSE_MS, MAX_PROBE_TIMEOUT_FACTOR, nextProbePause, nextProbeTimeout } from './probe-backoff.js';

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
