import { setFlagsFromString } from 'node:v8';

let enabled = false;

/**
 * `pattern` compiled for V8's linear-time regular expression engine (the `l` flag, enabled here for the
 * process): no backtracking, so no pattern can take time exponential in its input. Undefined when that
 * engine cannot run the pattern: back-references, lookahead and lookbehind, and counted repetitions it
 * would have to unroll more than 16 times (`\w{32}`, `(a{4}){5}`), or an invalid pattern.
 */
export function linearTimeRegExp(pattern: string): RegExp | undefined {
  if (!enabled) {
    setFlagsFromString('--enable-experimental-regexp-engine');
    enabled = true;
  }
  try {
    // eslint-disable-next-line no-invalid-regexp -- `l` is V8's linear-engine flag (enabled above), unknown to ESLint
    return new RegExp(pattern, 'l');
  } catch {
    return undefined;
  }
}
