import { monitorEventLoopDelay } from 'node:perf_hooks';
import { linearTimeRegExp } from '@antidote/contracts';
import { afterAll, expect, it } from 'vitest';
import { MatchPool } from './match-pool.js';

/** A pattern validation accepts (V8's linear-time engine runs it) that still takes seconds on a full answer. */
const SLOW_BUT_LINEAR = '((.*)(.*)(.*)(.*)(.*)(.*)(.*)a){16}'.repeat(7).slice(0, 256);
const ANSWER = `${'a'.repeat(8191)}!`;
const LIMIT_MS = 1000;
const pool = new MatchPool({ maxWorkers: 4, quarantineMs: 60_000, idleMs: 30_000 });
afterAll(() => pool.close());

/** The event loop's delay (ms: p50, p99, max) while `work` runs, sampled every 10 ms. */
async function loopDelayDuring(work: () => unknown): Promise<{ ms: number; p50: number; p99: number; max: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  // The sampler's first tick, so that a block from the very start of `work` is recorded.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  // One more turn of the loop, so that a block at the very end is recorded too.
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  const toMs = (ns: number) => ns / 1e6;
  return { ms, p50: toMs(histogram.percentile(50)), p99: toMs(histogram.percentile(99)), max: toMs(histogram.max) };
}

const line = (what: string, figures: { ms: number; p50: number; p99: number; max: number }) =>
  `  ${what.padEnd(62)} ${figures.ms.toFixed(0).padStart(6)} ms   loop delay p50 ${figures.p50.toFixed(1)} p99 ${figures.p99.toFixed(1)} max ${figures.max.toFixed(1)} ms`;

it('prints the event loop delay while hostile readiness patterns are matched', async () => {
  // Before: the match ran on the event loop (linear engine where it could, else a 250 ms VM time limit).
  const inLoop = await loopDelayDuring(() => linearTimeRegExp(SLOW_BUT_LINEAR)!.test(ANSWER));
  // After: on the pool's threads, under the time limit, four hostile labs at once, then plain ones.
  const hostile = await loopDelayDuring(() =>
    Promise.all(Array.from({ length: 4 }, (_, i) => pool.match(`${SLOW_BUT_LINEAR.slice(0, 250)}${i}`, ANSWER, LIMIT_MS))),
  );
  const plain = await loopDelayDuring(() =>
    Promise.all(Array.from({ length: 200 }, () => pool.match('Model: \\S+', 'Hostname: vqfx1\nModel: vqfx-10000\n', LIMIT_MS))),
  );
  console.log(
    [
      `bench readiness match: pattern of ${SLOW_BUT_LINEAR.length} characters (linear-time engine) on ${ANSWER.length} characters of answer`,
      line('on the event loop (before)', inLoop),
      line(`4 at once on the match threads, stopped at ${LIMIT_MS} ms (after)`, hostile),
      line('200 plain matches on the match threads', plain),
    ].join('\n'),
  );
  expect(plain.ms).toBeGreaterThan(0);
});
