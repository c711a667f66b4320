import { readFileSync } from 'node:fs';
import { DATABASE_KINDS, distribution, NETWORK_AUTOMATION, referenceKubeCalls, testDatabaseUrl, writeBenchReport, writeHistogramSvg, type Distribution } from '@antidote/testing';
import { expect, it } from 'vitest';
import { antictlUp, type UpPlatform } from './support/antictl-up.js';
import { expClient, setSimFaults, simRequests } from './support/exp-client.js';
import { untilFinal, type Outcome } from './support/time-to-ready.js';

const BURST = Number(process.env.BENCH_PLATFORM_LESSONS ?? 200);
const REALISTIC = Number(process.env.BENCH_PLATFORM_REALISTIC_LESSONS ?? 32);
const APPS = ['api', 'scheduler', 'healthchecker', 'reaper'] as const;
const { slug: SLUG, ...LESSON } = NETWORK_AUTOMATION;
const SLOW = { podStartDelayMs: 2000, jobRunDelayMs: 3000 };
const FLOOR_MS = SLOW.podStartDelayMs + SLOW.jobRunDelayMs + LESSON.readyDelayMs;
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

type App = (typeof APPS)[number];
type Usage = { rssMiB: number; peakRssMiB: number; cpuMs: number };

interface Run {
  lessons: number;
  seconds: number;
  lessonsPerSecond: number;
  failures: string[];
  timeToReadyMs?: Distribution;
  cpuMsPerLesson: Record<App | 'total', number>;
  kubeCallsPerLesson: number;
  samples: number[];
}

/** A process's resident and peak resident memory (MiB) and the CPU it has used (ms), from /proc. */
function usageOf(pid: number): Usage {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  // The fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const stat = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
  return { rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024, cpuMs: ((Number(stat[11]) + Number(stat[12])) * 1000) / TICKS_PER_SECOND };
}

const usages = (platform: UpPlatform) => Object.fromEntries(APPS.map((app) => [app, usageOf(platform.pidOf(app))])) as Record<App, Usage>;
/** Kubernetes API calls the scheduler has made so far (kube-sim's request log, by User-Agent) — the reaper's lease and passes apart. */
const kubeCalls = async (platform: UpPlatform) => (await simRequests(platform.kubeSim)).filter((request) => request.userAgent === 'antidote-scheduler').length;

/** `count` learners at once through the /exp API (each its own address, session and live lesson), until each lesson is final. */
async function burst(platform: UpPlatform, count: number, subnet: number): Promise<Run> {
  const before = usages(platform);
  const callsBefore = await kubeCalls(platform);
  const started = Date.now();
  const outcomes = await Promise.all(
    Array.from({ length: count }, async (_, i): Promise<Outcome> => {
      const ip = `10.${subnet}.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      const exp = expClient(platform.api, ip);
      const requestedAt = Date.now();
      try {
        const id = await exp.requestLesson(await exp.newSession(), SLUG, 0);
        return await untilFinal(exp, platform.api, ip, id, requestedAt);
      } catch (error) {
        return { ms: Date.now() - requestedAt, ready: false, why: String(error) };
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const after = usages(platform);
  const samples = outcomes.flatMap((outcome) => (outcome.ready ? [outcome.ms] : []));
  const cpu = Object.fromEntries(APPS.map((app) => [app, (after[app].cpuMs - before[app].cpuMs) / count])) as Record<App, number>;
  return {
    lessons: count,
    seconds,
    lessonsPerSecond: samples.length / seconds,
    failures: outcomes.flatMap((outcome) => (outcome.ready ? [] : [outcome.why])),
    ...(samples.length > 0 ? { timeToReadyMs: distribution(samples) } : {}),
    cpuMsPerLesson: { ...cpu, total: APPS.reduce((sum, app) => sum + cpu[app], 0) },
    kubeCallsPerLesson: ((await kubeCalls(platform)) - callsBefore) / count,
    samples,
  };
}

const row = (label: string, run: Run, floorMs = 0) =>
  `  ${label.padEnd(30)} ${String(run.lessons).padStart(4)} ${run.seconds.toFixed(1).padStart(6)} ${run.lessonsPerSecond.toFixed(2).padStart(6)} ${[run.timeToReadyMs?.p50, run.timeToReadyMs?.p95, run.timeToReadyMs?.p99].map((ms) => (ms === undefined ? '-' : String(Math.round(ms - floorMs))).padStart(7)).join('')} ${run.cpuMsPerLesson.total.toFixed(0).padStart(7)} ${run.kubeCallsPerLesson.toFixed(1).padStart(6)} ${String(run.failures.length).padStart(5)}`;

/**
 * The whole platform as it is deployed — nats-server, kube-sim and the four built apps, each a process
 * of its own (`antictl up`) — taking learners through the /exp API over HTTP: a burst with kube-sim's
 * delays zero (lessons/s, time to READY, CPU per lesson per app, failures), a realistic run (pods 2 s,
 * jobs 3 s) reported above that floor, one CREATE's Kubernetes calls beside the reference §10 formula,
 * and every app's memory idle and at its peak. Figures only; nothing about speed is asserted.
 */
it.each(DATABASE_KINDS)(`takes ${BURST} learners at once to READY through every app as a process, on %s`, { timeout: 1_800_000 }, async (kind) => {
  const { url } = await testDatabaseUrl(kind);
  // Every learner at once: no per-client rate and no cluster cap (the benchmark measures the platform, not its limits).
  const platform = await antictlUp({ config: { database: { url }, scheduler: { maxLiveLessons: 0 }, api: { rateLimitPerMinute: 0, maxInFlightRequests: 0 } }, flags: ['--restart'] });
  try {
    const idle = usages(platform);
    await setSimFaults(platform.kubeSim, { podStartDelayMs: 0, jobRunDelayMs: 0 });
    const fast = await burst(platform, BURST, 30);
    await setSimFaults(platform.kubeSim, SLOW);
    const realistic = await burst(platform, REALISTIC, 31);
    const single = await burst(platform, 1, 32);
    const peak = usages(platform);
    const reference = referenceKubeCalls(LESSON, SLOW.podStartDelayMs, SLOW.jobRunDelayMs);
    console.log(
      [
        `bench platform on ${kind}: ${SLUG} (3 endpoints, 3 links, 3 configs), every app a process (antictl up), learners through the /exp API`,
        `  ${'run'.padEnd(30)} ${'n'.padStart(4)} ${'s'.padStart(6)} ${'/s'.padStart(6)} ${'p50 ms'.padStart(7)}${'p95 ms'.padStart(7)}${'p99 ms'.padStart(7)} ${'cpu ms'.padStart(7)} ${'calls'.padStart(6)} ${'fail'.padStart(5)}`,
        row('burst, kube-sim delays zero', fast),
        row(`realistic, minus ${FLOOR_MS} ms floor`, realistic, FLOOR_MS),
        `  Kubernetes API calls for one live lesson at pods 2 s / jobs 3 s: ${single.kubeCallsPerLesson} by the scheduler, ${reference} by the reference §10 formula (${(reference / single.kubeCallsPerLesson).toFixed(1)}× more)`,
        `  cpu ms = user + system time of the four apps per lesson; calls = the scheduler's Kubernetes calls per lesson (kube-sim's log)`,
        `  ${'app'.padEnd(14)} ${'idle RSS MiB'.padStart(13)} ${'peak RSS MiB'.padStart(13)} ${'burst CPU ms/lesson'.padStart(20)}`,
        ...APPS.map((app) => `  ${app.padEnd(14)} ${idle[app].rssMiB.toFixed(0).padStart(13)} ${peak[app].peakRssMiB.toFixed(0).padStart(13)} ${fast.cpuMsPerLesson[app].toFixed(0).padStart(20)}`),
        ...[...new Set([...fast.failures, ...realistic.failures])].slice(0, 5).map((why) => `  failure: ${why}`),
      ].join('\n'),
    );
    const json = writeBenchReport(`platform-${kind}`, {
      lesson: NETWORK_AUTOMATION,
      burst: { ...fast, samples: undefined },
      realistic: { ...realistic, samples: undefined, ...SLOW, floorMs: FLOOR_MS, overheadMs: realistic.timeToReadyMs && { p50: realistic.timeToReadyMs.p50 - FLOOR_MS, p95: realistic.timeToReadyMs.p95 - FLOOR_MS } },
      kubeCalls: { oneLesson: single.kubeCallsPerLesson, referenceFormula: reference, ratio: reference / single.kubeCallsPerLesson },
      memoryMiB: Object.fromEntries(APPS.map((app) => [app, { idleRss: idle[app].rssMiB, peakRss: peak[app].peakRssMiB }])),
    });
    const chart = writeHistogramSvg(`platform-${kind}-time-to-ready`, `Time to READY, every app a process (${kind}): burst of ${BURST}, realistic ${REALISTIC} minus floor`, 'ms', {
      burst: fast.samples,
      'realistic − floor': realistic.samples.map((ms) => ms - FLOOR_MS),
    });
    console.log(`  figures: ${json}\n  chart: ${chart}`);
  } finally {
    expect(await platform.stop()).toBe(0);
  }
});
