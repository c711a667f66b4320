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
    { waitedMs: 0, intervalMs: 1000, next: FIRST_PAUSE_MS, why: 'the first pauses are short' },
    { waitedMs: 400, intervalMs: 1000, next: FIRST_PAUSE_MS, why: 'never below the shortest' },
    { waitedMs: 1600, intervalMs: 1000, next: 200, why: 'an eighth of the time waited' },
    { waitedMs: 6000, intervalMs: 1000, next: 750, why: 'growing with it' },
    { waitedMs: 150_000, intervalMs: 1000, next: 1000, why: 'capped at the interval' },
    { waitedMs: 0, intervalMs: 50, next: 50, why: 'an interval shorter than the shortest pause wins' },
    { waitedMs: 60_000, intervalMs: 0, next: 0, why: 'no pause stays no pause' },
  ])('$waitedMs ms into the wait (interval $intervalMs) → $next ms: $why', ({ waitedMs, intervalMs, next }) => {
    expect(nextProbePause(waitedMs, intervalMs)).toBe(next);
  });
});
