import { Inject, Injectable, Optional } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AntidoteConfig } from '@antidote/config';
import { ErrorCodes, RequestSubjects, type WaitReachableReply } from '@antidote/contracts';
import { BusClient, BusRequestError } from '@antidote/messaging';
import { allUp } from './unreachable-reason.js';

export interface ReachabilityTiming {
  /** The longest one request asks the healthchecker to wait: a reply lost to a NATS reconnect costs no more. */
  attemptMs: number;
  /** Margin for the reply to travel back after the healthchecker's own deadline. */
  replyMarginMs: number;
  /** Pause before asking again when no healthchecker answered. */
  retryMs: number;
}
export const REACHABILITY_TIMING = Symbol('REACHABILITY_TIMING');
const DEFAULT_TIMING: ReachabilityTiming = { attemptMs: 15_000, replyMarginMs: 5000, retryMs: 2000 };

/** The timing as configured (`timeouts.reachabilityAttemptSeconds`). */
export const reachabilityTiming = (config: Pick<AntidoteConfig, 'timeouts'>): ReachabilityTiming => ({
  ...DEFAULT_TIMING,
  attemptMs: config.timeouts.reachabilityAttemptSeconds * 1000,
});

/** What the client needs of the bus (a BusClient; a fake in unit tests). */
export type ReachabilityBus = Pick<BusClient, 'request'>;

/**
 * Asks the healthchecker to wait until every endpoint of a live lesson is up (reachable, and ready where
 * its image has a readiness check), in attempts of at
 * most `attemptMs` each until the deadline. One long request would hang for the whole deadline if its
 * reply were lost (NATS restarted while the healthchecker worked); short attempts re-ask instead. While
 * no healthchecker answers (restarting, scaling) it also asks again rather than failing. The attempts
 * cost the lab nothing: the healthchecker keeps one wait per lab across them (what is up stays up, the
 * back-off goes on) and answers each the moment every endpoint is up.
 */
@Injectable()
export class ReachabilityClient {
  constructor(
    @Inject(BusClient) private readonly bus: ReachabilityBus,
    @Optional() @Inject(REACHABILITY_TIMING) private readonly timing: ReachabilityTiming = DEFAULT_TIMING,
  ) {}

  async waitReachable(liveLessonId: string, deadlineMs: number, signal: AbortSignal): Promise<WaitReachableReply> {
    const deadline = Date.now() + deadlineMs;
    let last: WaitReachableReply | undefined;
    for (;;) {
      signal.throwIfAborted();
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        if (last) return last;
        throw new BusRequestError(ErrorCodes.timeout, 'no healthchecker answered before the reachability deadline', RequestSubjects.healthWaitReachable);
      }
      const attemptMs = Math.min(remaining, this.timing.attemptMs);
      const aborted = abortion(signal);
      try {
        last = await Promise.race([
          this.bus.request(
            RequestSubjects.healthWaitReachable,
            { liveLessonId, deadlineMs: attemptMs },
            { timeoutMs: attemptMs + this.timing.replyMarginMs, correlationId: liveLessonId },
          ),
          aborted.promise,
        ]);
        if (allUp(last)) return last;
      } catch (error) {
        if (!(error instanceof BusRequestError) || (error.code !== ErrorCodes.unavailable && error.code !== ErrorCodes.timeout)) throw error;
        await sleep(Math.min(this.timing.retryMs, Math.max(0, deadline - Date.now())), undefined, { signal });
      } finally {
        aborted.dispose();
      }
    }
  }
}

/**
 * A promise rejected when `signal` aborts, and how to stop listening: a listener left on the operation's
 * signal would keep its reply (every endpoint's probes) for as long as the signal lives.
 */
function abortion(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let onAbort = (): void => undefined;
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}
