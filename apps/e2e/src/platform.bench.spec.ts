import { readFileSync } from 'node:fs';
import { DATABASE_KINDS, distribution, testDatabaseUrl, writeBenchReport, writeHistogramSvg } from '@antidote/testing';
import { expect, it } from 'vitest';
import { antictlUp } from './support/antictl-up.js';
import { expClient, type ExpLiveLesson } from './support/exp-client.js';

const LESSONS = Number(process.env.BENCH_PLATFORM_LESSONS ?? 200);
const APPS = ['api', 'scheduler', 'healthchecker', 'reaper'];
const SLUGS = ['network-automation', 'linux-basics', 'web-services'];
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** A process's resident and peak resident memory (MiB) and the CPU it has used (ms), from /proc. */
function usageOf(pid: number): { rssMiB: number; peakRssMiB: number; cpuMs: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const raw = readFileSync(`/proc/${pid}/stat`, "utf8");
  const stat = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(stat[11]) + Number(stat[12]);
  return { rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024, cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
}

type Outcome = { ms: number; ready: true } | { ms: number; ready: false; why: string };

/** Follows the live lesson's server-sent events until READY, an error or deletion, as the front-end does; then reads where it ended. */
async function untilFinal(exp: ReturnType<typeof expClient>, api: string, id: string, requestedAt: number): Promise<Outcome> {
  const stream = await fetch(`${api}/exp/livelesson/${id}/events`, { signal: AbortSignal.timeout(600_000) });
  await stream.text();
  const ms = Date.now() - requestedAt;
  const final = await exp.get<ExpLiveLesson & { message?: string }>(`/exp/livelesson/${id}`);
  if (final.status === 200 && final.body.Status === 'READY') return { ms, ready: true };
  return { ms, ready: false, why: `HTTP ${final.status}: ${final.body.message ?? final.body.Status}` };
}

/**
 * The whole platform as it is deployed — nats-server, kube-sim and the four built apps, each a process
 * of its own (`antictl up`), kube-sim's delays zero — taking a burst of learners at once through the
 * /exp API over HTTP: lessons/s to READY, time to READY as a learner sees it, the apps' CPU per lesson,
 * failures, and every app's memory idle and at its peak. Figures only; nothing about speed is asserted.
 */
it.each(DATABASE_KINDS)(`takes ${LESSONS} learners at once to READY through the api, all apps as processes, on %s`, { timeout: 1_800_000 }, async (kind) => {
  const { url } = await testDatabaseUrl(kind);
  const platform = await antictlUp({ config: { database: { url }, api: { rateLimitPerMinute: 0 } }, flags: ['--restart'] });
  try {
    const pids = Object.fromEntries(APPS.map((app) => [app, platform.pidOf(app)]));
    const idle = Object.fromEntries(APPS.map((app) => [app, usageOf(pids[app])]));
    const started = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: LESSONS }, async (_, i): Promise<Outcome> => {
        const exp = expClient(platform.api, `10.30.${Math.floor(i / 250)}.${(i % 250) + 1}`);
        const requestedAt = Date.now();
        try {
          const id = await exp.requestLesson(await exp.newSession(), SLUGS[i % SLUGS.length], 0);
          return await untilFinal(exp, platform.api, id, requestedAt);
        } catch (error) {
          return { ms: Date.now() - requestedAt, ready: false, why: String(error) };
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const loaded = Object.fromEntries(APPS.map((app) => [app, usageOf(pids[app])]));
    const ready = outcomes.filter((outcome) => outcome.ready).map((outcome) => outcome.ms);
    const failures = outcomes.flatMap((outcome) => (outcome.ready ? [] : [outcome.why]));
    const cpuMsPerLesson = Object.fromEntries(APPS.map((app) => [app, (loaded[app].cpuMs - idle[app].cpuMs) / LESSONS]));
    const totalCpuMsPerLesson = Object.values(cpuMsPerLesson).reduce((sum, ms) => sum + ms, 0);
    const timeToReadyMs = ready.length > 0 ? distribution(ready) : undefined;
    console.log(
      [
        `bench platform on ${kind}: ${LESSONS} learners at once (${SLUGS.join(', ')}), every app a process (antictl up), kube-sim delays zero`,
        `  ${ready.length} READY in ${seconds.toFixed(1)} s (${(ready.length / seconds).toFixed(2)} lessons/s), failures ${failures.length}`,
        timeToReadyMs ? `  time to READY p50 ${timeToReadyMs.p50} ms, p95 ${timeToReadyMs.p95} ms, p99 ${timeToReadyMs.p99} ms, max ${timeToReadyMs.max} ms` : '  no lesson became READY',
        `  CPU per lesson ${totalCpuMsPerLesson.toFixed(0)} ms over the four apps`,
        `  ${'app'.padEnd(14)} ${'idle RSS MiB'.padStart(13)} ${'peak RSS MiB'.padStart(13)} ${'CPU ms/lesson'.padStart(14)}`,
        ...APPS.map((app) => `  ${app.padEnd(14)} ${idle[app].rssMiB.toFixed(0).padStart(13)} ${loaded[app].peakRssMiB.toFixed(0).padStart(13)} ${cpuMsPerLesson[app].toFixed(0).padStart(14)}`),
        ...[...new Set(failures)].slice(0, 5).map((why) => `  failure: ${why}`),
      ].join('\n'),
    );
    const json = writeBenchReport(`platform-${kind}`, {
      lessons: LESSONS,
      slugs: SLUGS,
      seconds,
      lessonsPerSecond: ready.length / seconds,
      failures,
      timeToReadyMs,
      cpuMsPerLesson: { ...cpuMsPerLesson, total: totalCpuMsPerLesson },
      memoryMiB: Object.fromEntries(APPS.map((app) => [app, { idleRss: idle[app].rssMiB, peakRss: loaded[app].peakRssMiB }])),
    });
    const chart = ready.length > 0 ? writeHistogramSvg(`platform-${kind}-time-to-ready`, `Time to READY, ${LESSONS} learners at once, all apps as processes (${kind})`, 'ms', { [kind]: ready }) : 'none';
    console.log(`  figures: ${json}\n  chart: ${chart}`);
    expect(outcomes).toHaveLength(LESSONS);
  } finally {
    expect(await platform.stop()).toBe(0);
  }
});
