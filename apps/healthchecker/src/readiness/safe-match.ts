import { READINESS_LIMITS } from '@antidote/contracts';
import { MatchPool, type MatchOutcome } from './match-pool.js';

export type { MatchOutcome } from './match-pool.js';

/** Default bound of one match (`healthcheck.readinessMatchTimeoutMs`): on a thread of its own, so it stalls nothing else. */
export const MATCH_TIME_LIMIT_MS = 1000;

/** The healthchecker's match threads (one process, one pool): at most 4 matches at once; a pattern that ran out of time rests a minute. */
export const readinessMatches = new MatchPool({ maxWorkers: 4, quarantineMs: 60_000, idleMs: 30_000 });

/**
 * Matches a curriculum's pattern on an endpoint's answer, bounded four ways: the pattern was capped and
 * checked for linear time at validation (`READINESS_LIMITS.pattern`, V8's linear-time engine), the input is
 * cut to `READINESS_LIMITS.input` characters, the match runs on a worker thread — never on the
 * healthchecker's event loop — and that thread is stopped at `timeLimitMs` (then `too-slow`).
 */
export function safeMatch(pattern: string, input: string, timeLimitMs = MATCH_TIME_LIMIT_MS): Promise<MatchOutcome> {
  return readinessMatches.match(pattern, input.slice(0, READINESS_LIMITS.input), timeLimitMs);
}
