import { createContext, Script } from 'node:vm';
import { READINESS_LIMITS } from '@antidote/contracts';

/**
 * How long one match may run before it counts as no match yet (a pattern that backtracks too much).
 * Wall time, so generous: a GC pause or a busy machine must not make a plain pattern fail.
 */
export const MATCH_TIME_LIMIT_MS = 250;

export type MatchOutcome = 'matched' | 'no-match' | 'too-slow' | 'invalid';

const TEST = new Script('regex.test(text)');
const sandbox = createContext({ regex: /^/, text: '' });

/**
 * Matches a curriculum's pattern on an endpoint's answer, bounded three ways: the pattern was capped at
 * validation (`READINESS_LIMITS.pattern`), the input is cut to `READINESS_LIMITS.input` characters, and
 * the match runs under a time limit in a VM context, so a catastrophically backtracking pattern ends
 * as `too-slow` instead of blocking the healthchecker's event loop for long.
 */
export function safeMatch(pattern: string, input: string, timeLimitMs = MATCH_TIME_LIMIT_MS): MatchOutcome {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch {
    return 'invalid';
  }
  Object.assign(sandbox, { regex, text: input.slice(0, READINESS_LIMITS.input) });
  try {
    return TEST.runInContext(sandbox, { timeout: timeLimitMs }) === true ? 'matched' : 'no-match';
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'too-slow';
    throw error;
  } finally {
    Object.assign(sandbox, { regex: /^/, text: '' });
  }
}
