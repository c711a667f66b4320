import { READINESS_LIMITS, readinessPort, type HealthTarget, type ReadinessCheck, type ReadinessResult } from '@antidote/contracts';
import { httpStatus } from './http-status.fetch.js';
import type { FetchOutcome, FetchTarget, ReadinessFetchers } from './readiness-fetch.js';
import { MATCH_TIME_LIMIT_MS, safeMatch } from './safe-match.js';
import { sshCommand } from './ssh-command.fetch.js';
import { tcpBanner } from './tcp-banner.fetch.js';

export const SOCKET_FETCHERS: ReadinessFetchers = { sshCommand, httpStatus, tcpBanner };

const SHOWN = 120;

/** A check in a few words: `ssh "show version" =~ /Model/`, `http GET /healthz → 200`, `tcp banner =~ /^SSH-/`. */
export function describeCheck(check: ReadinessCheck): string {
  switch (check.type) {
    case 'ssh':
      return `ssh "${check.command}" =~ /${check.match}/`;
    case 'http':
      return `http GET ${check.path} → ${check.status ?? 200}`;
    case 'tcp':
      return `tcp banner =~ /${check.match}/`;
  }
}

/** An answer shortened to one line for a reason. */
const shown = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > SHOWN ? `${line.slice(0, SHOWN)}…` : line);
};

const matchDetail = async (what: string, pattern: string, text: string, limitMs: number): Promise<{ ready: boolean; detail: string }> => {
  switch (await safeMatch(pattern, text, limitMs)) {
    case 'matched':
      return { ready: true, detail: `${what} matched /${pattern}/` };
    case 'no-match':
      return { ready: false, detail: `${what} did not match /${pattern}/ yet: ${shown(text)}` };
    case 'too-slow':
      return {
        ready: false,
        detail: `${what}: /${pattern}/ took over ${limitMs} ms on ${Math.min(text.length, READINESS_LIMITS.input)} characters (simplify the pattern)`,
      };
    case 'invalid':
      return { ready: false, detail: `/${pattern}/ is not a valid regular expression` };
  }
};

async function verdict(check: ReadinessCheck, outcome: FetchOutcome, matchLimitMs: number): Promise<{ ready: boolean; detail: string }> {
  const what = check.type === 'ssh' ? `"${check.command}"` : check.type === 'http' ? `GET ${check.path}` : 'banner';
  if (!outcome.ok) return { ready: false, detail: `${what} got no answer yet: ${outcome.error}` };
  switch (check.type) {
    case 'ssh':
      return matchDetail(`"${check.command}" output`, check.match, outcome.text ?? '', matchLimitMs);
    case 'tcp':
      return matchDetail('banner', check.match, outcome.text ?? '', matchLimitMs);
    case 'http': {
      const expected = check.status ?? 200;
      return outcome.status === expected
        ? { ready: true, detail: `GET ${check.path} answered ${expected}` }
        : { ready: false, detail: `GET ${check.path} answered ${outcome.status ?? 0}, not ${expected} yet` };
    }
  }
}

/**
 * Runs an endpoint's readiness check once (bounded by `timeoutMs` and `signal`; its pattern by
 * `matchLimitMs`, off the event loop) and says whether it is ready and why (not). The answer is fetched
 * by `fetchers` (real sockets, or fakes in unit tests).
 */
export async function evaluateReadiness(
  check: ReadinessCheck,
  endpoint: Pick<HealthTarget, 'host' | 'ports' | 'presentations' | 'sshUser' | 'sshPassword'>,
  options: { timeoutMs: number; signal?: AbortSignal; matchLimitMs?: number },
  fetchers: ReadinessFetchers = SOCKET_FETCHERS,
): Promise<ReadinessResult> {
  const description = describeCheck(check);
  const port = readinessPort(check, endpoint);
  if (port === undefined) return { check: description, ready: false, detail: `no port to check: give readiness.port or an ${check.type} presentation` };
  const target: FetchTarget = { host: endpoint.host, port, timeoutMs: options.timeoutMs, signal: options.signal };
  const outcome =
    check.type === 'ssh'
      ? await fetchers.sshCommand(target, check.command, { username: endpoint.sshUser, password: endpoint.sshPassword })
      : check.type === 'http'
        ? await fetchers.httpStatus(target, check.path)
        : await fetchers.tcpBanner(target);
  const { ready, detail } = await verdict(check, outcome, options.matchLimitMs ?? MATCH_TIME_LIMIT_MS);
  return { check: description, ready, detail: detail.slice(0, 1000) };
}
