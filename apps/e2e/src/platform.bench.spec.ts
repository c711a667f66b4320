import { readFileSync } from 'node:fs';
import { DATABASE_KINDS, distribution, testDatabaseUrl, writeBenchReport } from '@antidote/testing';
import { expect, it } from 'vitest';
import { antictlUp } from './support/antictl-up.js';
import { expClient } from './support/exp-client.js';

const LESSONS = Number(process.env.BENCH_PLATFORM_LESSONS ?? 24);
const APPS = ['api', 'scheduler', 'healthchecker', 'reaper'];
const SLUGS = ['network-automation', 'linux-basics', 'web-services'];

/** Resident and peak resident memory of a process, from /proc (Linux), in MiB. */
function memoryOf(pid: number): { rssMiB: number; peakRssMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024 };
}

/**
 * The whole platform as it is deployed — nats-server, kube-sim and the four built apps, each a process
 * of its own (`antictl up`) — taking a burst of learners through the /exp API over HTTP, each polling
 * its live lesson as the front-end does: time to READY as a learner sees it, and every app's memory
 * idle and at its peak.
 */
it.each(DATABASE_KINDS)(`takes ${LESSONS} learners at once to READY through the api, all apps as processes, on %s`, { timeout: 900_000 }, async (kind) => {
  const { url } = await testDatabaseUrl(kind);
  const platform = await antictlUp({ config: { database: { url }, api: { rateLimitPerMinute: 0 } }, flags: ['--restart'] });
  try {
    const pids = Object.fromEntries(APPS.map((app) => [app, platform.pidOf(app)]));
    const idle = Object.fromEntries(APPS.map((app) => [app, memoryOf(pids[app])]));
    const started = Date.now();
    const times = await Promise.all(
      Array.from({ length: LESSONS }, async (_, i) => {
        const exp = expClient(platform.api, `10.30.${Math.floor(i / 250)}.${(i % 250) + 1}`);
        const requestedAt = Date.now();
        const id = await exp.requestLesson(await exp.newSession(), SLUGS[i % SLUGS.length], 0);
        await exp.waitUntilReady(id, 0, 600_000);
        return Date.now() - requestedAt;
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const loaded = Object.fromEntries(APPS.map((app) => [app, memoryOf(pids[app])]));
    const timeToReadyMs = distribution(times);
    expect(times).toHaveLength(LESSONS);
    console.log(
      [
        `bench platform on ${kind}: ${LESSONS} learners at once (${SLUGS.join(', ')}), every app a process (antictl up)`,
        `  all READY in ${seconds.toFixed(1)} s (${(LESSONS / seconds).toFixed(2)} lessons/s); time to READY p50 ${timeToReadyMs.p50} ms, p95 ${timeToReadyMs.p95} ms, max ${timeToReadyMs.max} ms`,
        `  ${'app'.padEnd(14)} ${'idle RSS MiB'.padStart(13)} ${'peak RSS MiB'.padStart(13)}`,
        ...APPS.map((app) => `  ${app.padEnd(14)} ${idle[app].rssMiB.toFixed(0).padStart(13)} ${loaded[app].peakRssMiB.toFixed(0).padStart(13)}`),
      ].join('\n'),
    );
    const json = writeBenchReport(`platform-${kind}`, { lessons: LESSONS, slugs: SLUGS, seconds, timeToReadyMs, memoryMiB: Object.fromEntries(APPS.map((app) => [app, { idleRss: idle[app].rssMiB, peakRss: loaded[app].peakRssMiB }])) });
    console.log(`  figures: ${json}`);
  } finally {
    expect(await platform.stop()).toBe(0);
  }
});
