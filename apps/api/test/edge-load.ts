import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

export interface SlowGroup {
  /** Loopback address the group's connections come from (one client each, or one client for all). */
  address: string;
  count: number;
  /** `body`: headers sent, the body never; `headers`: the headers never ended. */
  kind: 'body' | 'headers';
}

export interface SlowCounts {
  connected: number;
  /** Connections the api answered (a 429, a 408…). */
  answered: number;
  closed: number;
}

/** Connections that never finish their request, opened from a worker thread (their sockets cost the api's event loop nothing). */
export async function openSlowClients(port: number, groups: SlowGroup[]): Promise<{ counts(): Promise<SlowCounts>; stop(): Promise<SlowCounts> }> {
  const worker = new Worker(new URL('./slow-clients.worker.mjs', import.meta.url), { workerData: { port, groups } });
  const next = (): Promise<SlowCounts> =>
    new Promise((resolve, reject) => {
      const answer = (counts: SlowCounts): void => {
        worker.off('error', reject);
        resolve(counts);
      };
      worker.once('message', answer).once('error', reject);
    });
  await next();
  return {
    counts: () => {
      const answer = next();
      worker.postMessage('count');
      return answer;
    },
    stop: async () => {
      const answer = next();
      worker.postMessage('stop');
      const counts = await answer;
      await worker.terminate();
      return counts;
    },
  };
}

/** Runs `work` while the event loop's delay is sampled; answers its result and the delay's p99 and max, in milliseconds. */
export async function withLoopDelay<T>(work: () => Promise<T>): Promise<{ result: T; p99: number; max: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    const result = await work();
    return { result, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
