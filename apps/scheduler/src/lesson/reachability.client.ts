import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { RequestSubjects, type WaitReachableReply } from '@antidote/contracts';
import { BusClient, BusRequestError } from '@antidote/messaging';

/** Margin for the reply to travel back after the healthchecker's own deadline. */
const REPLY_MARGIN_MS = 10_000;
const RETRY_MS = 2000;

/**
 * Asks the healthchecker to wait until every endpoint of a live lesson is reachable. While no
 * healthchecker answers (restarting, scaling), it asks again until the deadline instead of failing.
 */
@Injectable()
export class ReachabilityClient {
  constructor(@Inject(BusClient) private readonly bus: BusClient) {}

  async waitReachable(liveLessonId: string, deadlineMs: number, signal: AbortSignal): Promise<WaitReachableReply> {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      signal.throwIfAborted();
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new BusRequestError('TIMEOUT', 'no healthchecker answered before the reachability deadline', RequestSubjects.healthWaitReachable);
      try {
        return await Promise.race([
          this.bus.request(RequestSubjects.healthWaitReachable, { liveLessonId, deadlineMs: remaining }, { timeoutMs: remaining + REPLY_MARGIN_MS, correlationId: liveLessonId }),
          abortion(signal),
        ]);
      } catch (error) {
        if (!(error instanceof BusRequestError) || error.code !== 'UNAVAILABLE') throw error;
        await sleep(Math.min(RETRY_MS, Math.max(0, deadline - Date.now())), undefined, { signal });
      }
    }
  }
}

function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}
