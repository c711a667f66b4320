import { getEventListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCodes, RequestSubjects, type WaitReachableReply } from '@antidote/contracts';
import { BusRequestError } from '@antidote/messaging';
import { describe, expect, it } from 'vitest';
import { ReachabilityClient, type ReachabilityBus } from './reachability.client.js';

const timing = { attemptMs: 200, replyMarginMs: 100, retryMs: 20 };
const reply = (reachable: boolean): WaitReachableReply => ({
  reachable,
  healthy: reachable ? 1 : 0,
  total: 1,
  elapsedMs: 1,
  endpoints: [{ name: 'linux1', host: '10.0.0.1', reachable, latencyMs: 1, probes: [] }],
});

/** A bus whose n-th request is answered by `answers[n]` (the last one repeats); it records what was asked. */
function fakeBus(answers: Array<(timeoutMs: number) => Promise<WaitReachableReply>>) {
  const asked: Array<{ deadlineMs?: number; timeoutMs?: number }> = [];
  const bus = {
    request: (subject: string, payload: { deadlineMs?: number }, options: { timeoutMs?: number }) => {
      expect(subject).toBe(RequestSubjects.healthWaitReachable);
      asked.push({ deadlineMs: payload.deadlineMs, timeoutMs: options.timeoutMs });
      return answers[Math.min(asked.length, answers.length) - 1](options.timeoutMs ?? 0);
    },
  } as unknown as ReachabilityBus;
  return { bus, asked };
}

/** A reply lost on the way back: the requester hears nothing until its own timeout. */
const lost = async (timeoutMs: number): Promise<never> => {
  await sleep(timeoutMs);
  throw new BusRequestError(ErrorCodes.timeout, 'no reply in time', RequestSubjects.healthWaitReachable);
};

describe('ReachabilityClient', () => {
  it('asks again after a lost reply instead of waiting out the whole deadline', async () => {
    const { bus, asked } = fakeBus([lost, () => Promise.resolve(reply(true))]);
    const started = Date.now();
    const result = await new ReachabilityClient(bus, timing).waitReachable('lesson1', 60_000, new AbortController().signal);
    expect(result.reachable).toBe(true);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toEqual({ deadlineMs: 200, timeoutMs: 300 });
    // Far below the 60 s deadline it would otherwise wait out.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('leaves no listener on the signal once answered (it would hold the reply for as long as the signal lives)', async () => {
    const { bus } = fakeBus([() => Promise.resolve(reply(false)), () => Promise.resolve(reply(true))]);
    const signal = new AbortController().signal;
    await new ReachabilityClient(bus, timing).waitReachable('lesson1', 60_000, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('re-asks while the endpoints are unreachable and returns the last verdict at the deadline', async () => {
    const { bus, asked } = fakeBus([() => Promise.resolve(reply(false))]);
    const result = await new ReachabilityClient(bus, timing).waitReachable('lesson1', 400, new AbortController().signal);
    expect(result.reachable).toBe(false);
    expect(result.endpoints[0].name).toBe('linux1');
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.every((ask) => (ask.deadlineMs ?? 0) <= timing.attemptMs)).toBe(true);
  });

  it('waits through "no healthchecker answers" and fails with TIMEOUT when none ever does', async () => {
    const unavailable = (): Promise<never> =>
      Promise.reject(new BusRequestError(ErrorCodes.unavailable, 'no service answers', RequestSubjects.healthWaitReachable));
    const { bus, asked } = fakeBus([unavailable]);
    await expect(new ReachabilityClient(bus, timing).waitReachable('lesson1', 150, new AbortController().signal)).rejects.toMatchObject({
      code: ErrorCodes.timeout,
    });
    expect(asked.length).toBeGreaterThan(1);
  });

  it('passes other errors straight through', async () => {
    const notFound = (): Promise<never> =>
      Promise.reject(new BusRequestError(ErrorCodes.notFound, 'Unable to find liveLesson lesson1', RequestSubjects.healthWaitReachable));
    const { bus, asked } = fakeBus([notFound]);
    await expect(new ReachabilityClient(bus, timing).waitReachable('lesson1', 5000, new AbortController().signal)).rejects.toMatchObject({
      code: ErrorCodes.notFound,
    });
    expect(asked).toHaveLength(1);
  });

  it('stops at once when its signal aborts', async () => {
    const { bus } = fakeBus([lost]);
    const abort = new AbortController();
    const waiting = new ReachabilityClient(bus, { ...timing, attemptMs: 60_000 }).waitReachable('lesson1', 60_000, abort.signal);
    setTimeout(() => abort.abort(new Error('deleted')), 50);
    await expect(waiting).rejects.toThrow('deleted');
  });
});
