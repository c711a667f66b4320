import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { RawAnswer } from './raw-http.js';

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

export interface LoopDelay {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Runs `work` while the event loop's delay is sampled; answers its result and the delay's percentiles, in milliseconds. */
export async function withLoopDelay<T>(work: () => Promise<T>): Promise<{ result: T; delay: LoopDelay }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    const result = await work();
    const at = (percentile: number): number => Math.round(histogram.percentile(percentile) / 1e5) / 10;
    return { result, delay: { p50: at(50), p90: at(90), p99: at(99), max: Math.round(histogram.max / 1e5) / 10 } };
  } finally {
    histogram.disable();
  }
}

/** `count` requests one after the other, 50 ms apart, while the event loop's delay is sampled. */
export async function responsiveness(send: () => Promise<RawAnswer>, count = 20): Promise<{ answers: RawAnswer[]; delay: LoopDelay; line: string }> {
  const { result: answers, delay } = await withLoopDelay(async () => {
    const answers: RawAnswer[] = [];
    for (let i = 0; i < count; i++) {
      answers.push(await send());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return answers;
  });
  const line = `answers ${answers.map((answer) => Math.round(answer.ms)).join(' ')} ms; event-loop delay p50 ${delay.p50}, p90 ${delay.p90}, p99 ${delay.p99}, max ${delay.max} ms`;
  return { answers, delay, line };
}
