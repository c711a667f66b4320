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
