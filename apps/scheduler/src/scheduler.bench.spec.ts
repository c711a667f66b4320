import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import {
  DATABASE_KINDS,
  distribution,
  NETWORK_AUTOMATION,
  referenceKubeCalls,
  startTestPlatform,
  writeBenchReport,
  writeHistogramSvg,
  type DatabaseKind,
  type Distribution,
  type TestPlatform,
} from '@antidote/testing';
import { expect, it } from 'vitest';
import { schedulerService } from './scheduler.definition.js';

const BURST = Number(process.env.BENCH_LESSONS ?? 200);
const REALISTIC = Number(process.env.BENCH_REALISTIC_LESSONS ?? 32);
const { slug: SLUG, ...LESSON } = NETWORK_AUTOMATION;

interface Run {
  lessons: number;
  failures: number;
  seconds: number;
  lessonsPerSecond: number;
  timeToReadyMs: Distribution;
  cpuMsPerLesson: number;
  kubeCallsPerLesson: number;
  samples: number[];
}

/** Requests `count` live lessons at once and waits for every READY (or error) status event. */
async function burst(p: TestPlatform<'healthchecker' | 'scheduler', KubeSim>, count: number): Promise<Run> {
  const lessons = await Promise.all(Array.from({ length: count }, () => p.newLiveLesson(SLUG)));
  p.sim.counters.reset();
  const cpu = process.cpuUsage();
  const requestedAt = new Map<string, number>();
  const started = Date.now();
  await Promise.all(
    lessons.map((lesson) => {
      requestedAt.set(lesson.id, Date.now());
      return p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id });
    }),
  );
  const ids = new Set(lessons.map((lesson) => lesson.id));
  const done = () => p.events.filter((event) => ids.has(event.liveLessonId) && (event.status === LiveLessonStatus.READY || event.error));
  await expect.poll(() => done().length, { timeout: 600_000, interval: 100 }).toBeGreaterThanOrEqual(count);
  const seconds = (Date.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const finished = done();
  const samples = finished.filter((event) => !event.error).map((event) => Date.parse(event.at) - requestedAt.get(event.liveLessonId)!);
  return {
    lessons: count,
    failures: finished.filter((event) => event.error).length,
    seconds,
    lessonsPerSecond: count / seconds,
    timeToReadyMs: distribution(samples),
    cpuMsPerLesson: (used.user + used.system) / 1000 / count,
    kubeCallsPerLesson: p.sim.counters.total() / count,
    samples,
  };
}

/** Deadlines long enough for the reference §10 example's 20 s pods and 30 s jobs (the test defaults are 20 s). */
const SLOW_TIMEOUTS = { podRunningSeconds: 120, reachabilitySeconds: 60, configJobSeconds: 120, namespaceDeleteSeconds: 20 };

const platform = (kind: DatabaseKind, podStartDelayMs: number, jobRunDelayMs: number) =>
  // No cluster cap (scheduler.maxLiveLessons): the benchmark takes BENCH_LESSONS at once, whatever the number.
  startTestPlatform(kind, {
    cluster: startKubeSim,
    services: { healthchecker: healthcheckerService, scheduler: schedulerService },
    faults: { podStartDelayMs, jobRunDelayMs },
    overrides: {
      scheduler: { redriveIntervalSeconds: 1, redriveAfterSeconds: 1, claimLeaseSeconds: 5, maxLiveLessons: 0 },
      ...(podStartDelayMs >= 20_000 ? { timeouts: SLOW_TIMEOUTS } : {}),
    },
  });

const row = (label: string, run: Run, floorMs = 0) =>
  `  ${label.padEnd(34)} ${String(run.lessons).padStart(4)} ${run.seconds.toFixed(1).padStart(7)} ${run.lessonsPerSecond.toFixed(1).padStart(7)} ${[run.timeToReadyMs.p50, run.timeToReadyMs.p95, run.timeToReadyMs.p99].map((ms) => String(Math.round(ms - floorMs)).padStart(7)).join('')} ${run.cpuMsPerLesson.toFixed(0).padStart(7)} ${run.kubeCallsPerLesson.toFixed(1).padStart(7)} ${String(run.failures).padStart(5)}`;

/**
 * The provisioning benchmark (issue: observability and the benchmark), scheduler + healthchecker +
 * kube-sim in this process, real nats-server and database: a burst with no simulated delays, a realistic
 * run (pods 2 s, jobs 3 s) reported above the simulated floor, and API calls against the reference formula.
 */
it.each(DATABASE_KINDS)(`provisions ${BURST} live lessons at once on %s and prints the figures`, { timeout: 1_200_000 }, async (kind) => {
  const zero = await platform(kind, 0, 0);
  const fast = await burst(zero, BURST).finally(() => zero.stop());
  const slow = await platform(kind, 2000, 3000);
  const realistic = await burst(slow, REALISTIC);
  const single = await burst(slow, 1).finally(() => slow.stop());
  // The reference §10 example's delays: pods Running at 20 s, job pods 20 s + 10 s.
  const reference20 = await platform(kind, 20_000, 10_000);
  const slowest = await (async () => {
    // A process's first lesson also reads the TLS secret it copies (then cached for a minute): one lesson at
    // no delay first, so the line counts what a CREATE costs, as the 2 s / 3 s line after the runs above.
    reference20.sim.setFaults({ podStartDelayMs: 0, jobRunDelayMs: 0 });
    await burst(reference20, 1);
    reference20.sim.setFaults({ podStartDelayMs: 20_000, jobRunDelayMs: 10_000 });
    return burst(reference20, 1);
  })().finally(() => reference20.stop());
  const floorMs = 2000 + 3000 + LESSON.readyDelayMs;
  const reference = referenceKubeCalls(LESSON, 2000, 3000);
  const referenceSlowest = referenceKubeCalls(LESSON, 20_000, 30_000);
  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  console.log(
    [
      `bench scheduler on ${kind} (network-automation: 3 endpoints, 3 links, 3 configs; default 16 operations in parallel)`,
      `  ${'run'.padEnd(34)} ${'n'.padStart(4)} ${'s'.padStart(7)} ${'/s'.padStart(7)} ${'p50 ms'.padStart(7)}${'p95 ms'.padStart(7)}${'p99 ms'.padStart(7)} ${'cpu ms'.padStart(7)} ${'calls'.padStart(7)} ${'fail'.padStart(5)}`,
      row('burst, no simulated delays', fast),
      row(`realistic, minus ${floorMs} ms floor`, realistic, floorMs),
      `  Kubernetes API calls for one CREATE at pods 2 s / jobs 3 s: ${single.kubeCallsPerLesson} by the scheduler, ${reference} by the reference §10 formula (${(reference / single.kubeCallsPerLesson).toFixed(1)}× more)`,
      `  Kubernetes API calls for one CREATE at pods 20 s / jobs 30 s: ${slowest.kubeCallsPerLesson} by the scheduler, ${referenceSlowest} by the reference §10 formula (${(referenceSlowest / slowest.kubeCallsPerLesson).toFixed(1)}× more)`,
      `  cpu ms = CPU of this process (scheduler, healthchecker, kube-sim, harness) per lesson; peak RSS of this process ${peakRssMiB.toFixed(0)} MiB`,
    ].join('\n'),
  );
  const json = writeBenchReport(`scheduler-${kind}`, {
    lesson: { slug: SLUG, ...LESSON },
    burst: { ...fast, samples: undefined },
    realistic: {
      ...realistic,
      samples: undefined,
      podStartMs: 2000,
      jobRunMs: 3000,
      floorMs,
      overheadMs: { p50: realistic.timeToReadyMs.p50 - floorMs, p95: realistic.timeToReadyMs.p95 - floorMs },
    },
    kubeCalls: { oneCreate: single.kubeCallsPerLesson, referenceFormula: reference, ratio: reference / single.kubeCallsPerLesson },
    kubeCallsAtReferenceDelays: {
      podStartMs: 20_000,
      jobsMs: 30_000,
      oneCreate: slowest.kubeCallsPerLesson,
      referenceFormula: referenceSlowest,
      ratio: referenceSlowest / slowest.kubeCallsPerLesson,
    },
    peakRssMiB,
  });
  const svg = writeHistogramSvg(
    `scheduler-${kind}-time-to-ready`,
    `time to READY, ${kind} (burst of ${BURST}, no delays; realistic ${REALISTIC}, minus floor)`,
    'ms',
    {
      burst: fast.samples,
      'realistic − floor': realistic.samples.map((ms) => ms - floorMs),
    },
  );
  console.log(`  figures: ${json}\n  chart:   ${svg}`);
});
