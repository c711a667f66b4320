import type { ProbeRunner } from '../probes/probe-runner.js';

/** How many times its configured timeout a probe may be given at the most (after rounds that found nothing). */
export const MAX_PROBE_TIMEOUT_FACTOR = 16;

/**
 * The time the next probe of an endpoint gets after a round that did not find it up: twice the last, up to
 * MAX_PROBE_TIMEOUT_FACTOR × the configured one. A refused port answers at once whatever the bound; an
 * endpoint whose handshake is slow (a loaded node, a device still booting) gets longer and longer, where a
 * fixed bound would time every attempt out until the deadline.
 */
export const nextProbeTimeout = (lastMs: number, configuredMs: number): number => Math.min(lastMs * 2, configuredMs * MAX_PROBE_TIMEOUT_FACTOR);

/** The shortest pause after a round that did not find an endpoint up. */
export const FIRST_PAUSE_MS = 100;

/** The pause is this share of the time the endpoint has been waited for. */
export const PAUSE_SHARE = 1 / 8;

/**
 * The pause after a round that did not find an endpoint up, `waitedMs` into its wait: an eighth of that
 * time, at least FIRST_PAUSE_MS, at most `intervalMs`. So an endpoint is found up at most an eighth of
 * its boot late (plus a probe): a host that boots in 2 s within ~0.25 s, a router that boots in 60 s
 * within the interval — where a fixed interval would find a 2 s host up to half its boot late, and a
 * doubling pause makes that lateness depend on where the doubling stood.
 */
export const nextProbePause = (waitedMs: number, intervalMs: number): number =>
  Math.min(intervalMs, Math.max(FIRST_PAUSE_MS, Math.round(waitedMs * PAUSE_SHARE)));

/** What the wait needs of the probes. */
export type ReachabilityProbe = Pick<ProbeRunner, 'timeoutMs' | 'check'>;
