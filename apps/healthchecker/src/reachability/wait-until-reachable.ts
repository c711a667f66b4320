import type { HealthTarget, WaitReachableReply } from '@antidote/contracts';
import { LessonWait } from './lesson-wait.js';
import type { ReachabilityProbe } from './probe-backoff.js';

export interface WaitOptions {
  deadlineMs: number;
  intervalMs: number;
  signal?: AbortSignal;
  /** Called as each endpoint comes up (healthy so far, total). */
  onProgress?: (endpoint: string, healthy: number, total: number) => void | Promise<void>;
}

/**
 * A one-off wait: every endpoint probed until it is up once (as LessonWait does), until all are up or the
 * deadline passes, when probing ends.
 */
export async function waitUntilReachable(runner: ReachabilityProbe, endpoints: readonly HealthTarget[], options: WaitOptions): Promise<WaitReachableReply> {
  const stop = new AbortController();
  const abort = (): void => stop.abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  if (options.signal?.aborted) stop.abort();
  let healthy = 0;
  const wait = new LessonWait(runner, endpoints, new Set(), {
    keepUntil: Date.now() + options.deadlineMs,
    intervalMs: options.intervalMs,
    signal: stop.signal,
    onUp: async (endpoint) => void (await options.onProgress?.(endpoint, ++healthy, endpoints.length)),
  });
  try {
    return await wait.reply(options.deadlineMs);
  } finally {
    stop.abort();
    options.signal?.removeEventListener('abort', abort);
  }
}
