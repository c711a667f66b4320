import { getEventListeners } from 'node:events';
import { afterEach, expect, it, vi } from 'vitest';
import { Informer } from './informer.js';
import type { KubeApi } from './kube-api.js';

afterEach(() => vi.useRealTimers());

it('backs off between refused watches without leaving a listener per back-off on its stop signal', async () => {
  vi.useFakeTimers();
  let stopSignal: AbortSignal | undefined;
  let watches = 0;
  const api = {
    must: () => Promise.resolve({ code: 200, body: { items: [], metadata: { resourceVersion: '1' } } }),
    // Refused at once: the informer backs off a second before the next one.
    watch: (_path: string, _onEvent: unknown, signal: AbortSignal) => {
      stopSignal = signal;
      watches++;
      return Promise.resolve();
    },
  } as unknown as KubeApi;
  const informer = new Informer(api, '/api/v1/pods', { upsert: () => undefined, remove: () => undefined }, () => undefined);
  await informer.start();
  for (let second = 0; second < 20; second++) await vi.advanceTimersByTimeAsync(1000);
  expect(watches).toBeGreaterThan(20);
  expect(getEventListeners(stopSignal!, 'abort').length).toBeLessThanOrEqual(1);
  await informer.stop();
  expect(getEventListeners(stopSignal!, 'abort')).toHaveLength(0);
});
