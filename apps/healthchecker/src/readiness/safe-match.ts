import { createContext, Script } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { READINESS_LIMITS } from '@antidote/contracts';

/**
 * How long one match may run before it counts as no match yet (a pattern that backtracks too much).
 * Wall time, so generous: a GC pause or a busy machine must not make a plain pattern fail.
 */
export const MATCH_TIME_LIMIT_MS = 250;

export type MatchOutcome = 'matched' | 'no-match' | 'too-slow' | 'invalid';

// V8's linear-time regular expression engine (no backtracking), for patterns compiled with the `l` flag.
setFlagsFromString('--enable-experimental-regexp-engine');

const TEST = new Script('regex.test(text)');
const sandbox = createContext({ regex: /^/, text: '' });

/**
 * Matches a curriculum's pattern on an endpoint's answer, bounded three ways: the pattern was capped at
 * validation (`READINESS_LIMITS.pattern`), the input is cut to `READINESS_LIMITS.input` characters, and
 * the match cannot run away. A pattern V8's linear-time engine can run (nearly all: everything but
 * back-references and lookaround) runs there, in time proportional to pattern × input; any other runs
 * under a time limit in a VM context (a watchdog thread per match), so a catastrophically backtracking
 * pattern ends as `too-slow` instead of blocking the healthchecker's event loop for long.
 */
export function safeMatch(pattern: string, input: string, timeLimitMs = MATCH_TIME_LIMIT_MS): MatchOutcome {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch {
    return 'invalid';
  }
  const text = input.slice(0, READINESS_LIMITS.input);
  const linear = linearRegex(pattern);
  if (linear) return linear.test(text) ? 'matched' : 'no-match';
  Object.assign(sandbox, { regex, text });
  try {
    return TEST.runInContext(sandbox, { timeout: timeLimitMs }) === true ? 'matched' : 'no-match';
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'too-slow';
    throw error;
  } finally {
    Object.assign(sandbox, { regex: /^/, text: '' });
  }
}

/** The pattern for the linear-time engine, or undefined when that engine cannot run it. */
function linearRegex(pattern: string): RegExp | undefined {
  try {
    // eslint-disable-next-line no-invalid-regexp -- `l` is V8's linear-engine flag (enabled above), unknown to ESLint
    return new RegExp(pattern, 'l');
  } catch {
    return undefined;
  }
}
