import { setTimeout as sleep } from 'node:timers/promises';
import { writeBenchReport } from '@antidote/testing';
import { expect, it } from 'vitest';
import { antictlUp } from './support/antictl-up.js';
import { APPS, usages, type App } from './support/platform-usage.js';

/** Platforms started one after another; the figure per app is the median. */
const RUNS = Number(process.env.BENCH_IDLE_RUNS ?? 3);
/** How long the platform stays idle after "Antidote is up" before each app's RSS is read. */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Each app's resident memory at idle, as an operator gets it: `antictl up` (SQLite, kube-sim, the sample
 * curriculum), nothing requested, VmRSS read IDLE_SECONDS after start-up; medians over RUNS platforms.
 * Figures only (the target, ≤ 100 MiB per app, is in docs/performance.md).
 */
it('prints each app’s idle RSS', { timeout: RUNS * (IDLE_SECONDS + 480) * 1000 }, async () => {
  const runs: Record<App, number>[] = [];
  for (let run = 0; run < RUNS; run++) {
    const platform = await antictlUp();
    try {
      await sleep(IDLE_SECONDS * 1000);
      const usage = usages(platform);
      runs.push(Object.fromEntries(APPS.map((app) => [app, usage[app].rssMiB])) as Record<App, number>);
    } finally {
      expect(await platform.stop()).toBe(0);
    }
  }
  const idle = Object.fromEntries(APPS.map((app) => [app, median(runs.map((figures) => figures[app]))])) as Record<App, number>;
  for (const app of APPS) expect(Number.isFinite(idle[app])).toBe(true);
  console.log(
    [
      `bench idle memory: VmRSS MiB of each app ${IDLE_SECONDS} s after antictl up, median of ${RUNS}`,
      ...APPS.map((app) => `  ${app.padEnd(14)} ${idle[app].toFixed(0).padStart(4)}   (runs: ${runs.map((figures) => figures[app].toFixed(0)).join(', ')})`),
    ].join('\n'),
  );
  console.log(`  figures: ${writeBenchReport('idle-memory', { idleSeconds: IDLE_SECONDS, runs, medianRssMiB: idle })}`);
});
