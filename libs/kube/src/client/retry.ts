import { type KubeApiError, NO_RESPONSE, type KubeVerb } from './kube-api.error.js';

export interface BackoffPolicy {
  /** First delay's upper bound. */
  baseMs: number;
  /** Cap of the exponential growth. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 200, maxMs: 10_000 };

/** "Full jitter": a uniformly random delay in [0, min(max, base·2^attempt)) (AWS architecture blog). */
export function fullJitterDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/**
 * Whether a failed call may be sent again. 429 is always safe (the server refused it unprocessed). 5xx
 * and no-response are ambiguous — the server may have acted — so only idempotent verbs, or creates the
 * caller declared safe (deterministic name + 409 adoption), are repeated.
 */
export function isRetryable(error: KubeApiError, verb: KubeVerb, createIsSafe: boolean): boolean {
  if (error.reason === 'Aborted') return false;
  if (error.code === 429) return true;
  const ambiguous = error.code === NO_RESPONSE || (error.code >= 500 && error.code !== 501);
  if (!ambiguous) return false;
  if (verb === 'create' || verb === 'patch' || verb === 'update') return createIsSafe;
  return true;
}

/** The pause before the next attempt: full jitter, but never shorter than the server's Retry-After. */
export function retryDelay(error: KubeApiError, attempt: number, policy: BackoffPolicy, random: () => number): number {
  const jitter = fullJitterDelay(attempt, policy, random);
  return error.retryAfterSeconds !== undefined ? Math.max(jitter, error.retryAfterSeconds * 1000) : jitter;
}

/** Resolves after `ms`, or rejects when `signal` aborts first. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
