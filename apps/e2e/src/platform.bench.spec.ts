import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DATABASE_KINDS,
  NETWORK_AUTOMATION,
  referenceKubeCalls,
  selfByPackage,
  testDatabaseUrl,
  writeBenchReport,
  writeFlameGraph,
  writeHistogramSvg,
  type ClockWindow,
} from '@antidote/testing';
import { expect, it } from 'vitest';
import { antictlUp, ROOT } from './support/antictl-up.js';
import { setSimFaults } from './support/exp-client.js';
import { APPS, burst, kubeSimPid, usages, type Run } from './support/platform-usage.js';

const BURST = Number(process.env.BENCH_PLATFORM_LESSONS ?? 200);
const REALISTIC = Number(process.env.BENCH_PLATFORM_REALISTIC_LESSONS ?? 32);
/**
 * The first learners after start-up, before the burst: the code paths they take are compiled then (V8's
 * optimising compiler runs on threads of the process, so its CPU counts), once per process, not per lesson.
 */
const WARM_UP = Number(process.env.BENCH_PLATFORM_WARM_UP_LESSONS ?? 20);
const PROFILED = Number(process.env.BENCH_PLATFORM_PROFILED_LESSONS ?? 50);
/** Every app's CPU sampled each millisecond, written as `<app>.<pid>.cpuprofile` into $CPU_PROFILE_DIR when it exits. */
const PROFILER_PRELOAD = join(ROOT, 'tools', 'scripts', 'cpu-profile-preload.mjs');
/** No per-client rate and no cluster cap: the benchmark measures the platform, not its limits. */
const UNLIMITED = {
  scheduler: { maxLiveLessons: 0 },
  api: { rateLimitPerMinute: 0, maxInFlightRequests: 0, newSessionsPerAddress: { count: 0 }, newLabsPerAddress: { count: 0 } },
};
/** The monotonic clock in µs, as CPU profiles time their samples (the same clock in every process). */
const clockMicros = () => Number(process.hrtime.bigint() / 1000n);
const { slug: SLUG, ...LESSON } = NETWORK_AUTOMATION;
const SLOW = { podStartDelayMs: 2000, jobRunDelayMs: 3000 };
/** What the cluster itself takes: endpoint pods start, the endpoints boot, then the configuration Jobs' pods start and run. */
const FLOOR_MS = SLOW.podStartDelayMs + LESSON.readyDelayMs + SLOW.podStartDelayMs + SLOW.jobRunDelayMs;
const row = (label: string, run: Run, floorMs = 0) =>
  `  ${label.padEnd(30)} ${String(run.lessons).padStart(4)} ${run.seconds.toFixed(1).padStart(6)} ${run.lessonsPerSecond.toFixed(2).padStart(6)} ${[run.timeToReadyMs?.p50, run.timeToReadyMs?.p95, run.timeToReadyMs?.p99].map((ms) => (ms === undefined ? '-' : String(Math.round(ms - floorMs))).padStart(7)).join('')} ${run.cpuMsPerLesson.total.toFixed(0).padStart(7)} ${run.statementsPerLesson.toFixed(1).padStart(6)} ${run.kubeCallsPerLesson.toFixed(1).padStart(6)} ${String(run.failures.length).padStart(5)}`;

/**
 * The whole platform as it is deployed — nats-server, kube-sim and the four built apps, each a process
 * of its own (`antictl up`) — taking learners through the /exp API over HTTP: a burst with kube-sim's
 * delays zero (lessons/s, time to READY, CPU per lesson per app, failures), a realistic run (pods 2 s,
 * jobs 3 s) reported above that floor, one CREATE's Kubernetes calls beside the reference §10 formula,
 * and every app's memory idle and at its peak. Figures only; nothing about speed is asserted.
 */
it.each(DATABASE_KINDS)(`takes ${BURST} learners at once to READY through every app as a process, on %s`, { timeout: 1_800_000 }, async (kind) => {
  const { url } = await testDatabaseUrl(kind);
  const platform = await antictlUp({ config: { database: { url }, ...UNLIMITED }, flags: ['--restart'] });
  try {
    const idle = usages(platform);
    await setSimFaults(platform.kubeSim, { podStartDelayMs: 0, jobRunDelayMs: 0 });
    const cold = await burst(platform, SLUG, WARM_UP, 29);
    const fast = await burst(platform, SLUG, BURST, 30);
    await setSimFaults(platform.kubeSim, SLOW);
    const realistic = await burst(platform, SLUG, REALISTIC, 31);
    const single = await burst(platform, SLUG, 1, 32);
    const peak = usages(platform);
    const reference = referenceKubeCalls(LESSON, SLOW.podStartDelayMs, SLOW.jobRunDelayMs);
    console.log(
      [
        `bench platform on ${kind}: ${SLUG} (3 endpoints, 3 links, 3 configs), every app a process (antictl up), learners through the /exp API`,
        `  ${'run'.padEnd(30)} ${'n'.padStart(4)} ${'s'.padStart(6)} ${'/s'.padStart(6)} ${'p50 ms'.padStart(7)}${'p95 ms'.padStart(7)}${'p99 ms'.padStart(7)} ${'cpu ms'.padStart(7)} ${'stmts'.padStart(6)} ${'calls'.padStart(6)} ${'fail'.padStart(5)}`,
        row('warm-up: first after start-up', cold),
        row('burst, kube-sim delays zero', fast),
        row(`realistic, minus ${FLOOR_MS} ms floor`, realistic, FLOOR_MS),
        `  Kubernetes API calls for one live lesson at pods 2 s / jobs 3 s: ${single.kubeCallsPerLesson} by the scheduler, ${reference} by the reference §10 formula (${(reference / single.kubeCallsPerLesson).toFixed(1)}× more)`,
        `  cpu ms = user + system time of the four apps per lesson; stmts = their database statements per lesson (polling and periodic work included); calls = the scheduler's Kubernetes calls per lesson (kube-sim's log)`,
        `  ${'app'.padEnd(14)} ${'idle RSS MiB'.padStart(13)} ${'peak RSS MiB'.padStart(13)} ${'burst CPU ms/lesson'.padStart(20)}`,
        ...APPS.map(
          (app) =>
            `  ${app.padEnd(14)} ${idle[app].rssMiB.toFixed(0).padStart(13)} ${peak[app].peakRssMiB.toFixed(0).padStart(13)} ${fast.cpuMsPerLesson[app].toFixed(0).padStart(20)}`,
        ),
        `  kube-sim (the simulated cluster, not in cpu ms; on the same 2 cores): ${fast.kubeSimCpuMsPerLesson.toFixed(0)} ms/lesson in the burst`,
        ...[...new Set([...cold.failures, ...fast.failures, ...realistic.failures])].slice(0, 5).map((why) => `  failure: ${why}`),
      ].join('\n'),
    );
    const json = writeBenchReport(`platform-${kind}`, {
      lesson: NETWORK_AUTOMATION,
      warmUp: { ...cold, samples: undefined, held: undefined },
      burst: { ...fast, samples: undefined, held: undefined },
      realistic: {
        ...realistic,
        samples: undefined,
        held: undefined,
        ...SLOW,
        floorMs: FLOOR_MS,
        overheadMs: realistic.timeToReadyMs && { p50: realistic.timeToReadyMs.p50 - FLOOR_MS, p95: realistic.timeToReadyMs.p95 - FLOOR_MS },
      },
      kubeCalls: { oneLesson: single.kubeCallsPerLesson, referenceFormula: reference, ratio: reference / single.kubeCallsPerLesson },
      memoryMiB: Object.fromEntries(APPS.map((app) => [app, { idleRss: idle[app].rssMiB, peakRss: peak[app].peakRssMiB }])),
    });
    const chart = writeHistogramSvg(
      `platform-${kind}-time-to-ready`,
      `Time to READY, every app a process (${kind}): burst of ${BURST}, realistic ${REALISTIC} minus floor`,
      'ms',
      {
        burst: fast.samples,
        'realistic − floor': realistic.samples.map((ms) => ms - FLOOR_MS),
      },
    );
    console.log(`  figures: ${json}\n  chart: ${chart}`);
  } finally {
    expect(await platform.stop()).toBe(0);
  }
});

/**
 * Where a burst's CPU goes: the platform (SQLite) with every app and kube-sim under the CPU profiler, a
 * warm-up burst, then a burst of PROFILED learners; each process's samples of that burst become a flame
 * graph in reports/bench and its self time by package is printed. The profiler's sampling costs CPU of
 * its own, so these times are for shares, not for comparing with the figures of the run above.
 * BENCH_KEEP_PROFILES keeps the raw `.cpuprofile` files (their directory is printed).
 */
it(`profiles a burst of ${PROFILED} learners: a flame graph per app`, { timeout: 900_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'antidote-profiles-'));
  const platform = await antictlUp({ config: UNLIMITED, flags: ['--restart'], env: { NODE_OPTIONS: `--import ${PROFILER_PRELOAD}`, CPU_PROFILE_DIR: dir } });
  let window: ClockWindow;
  let pids: Record<string, number>;
  try {
    await setSimFaults(platform.kubeSim, { podStartDelayMs: 0, jobRunDelayMs: 0 });
    await burst(platform, SLUG, WARM_UP, 33); // the code paths compiled before the window
    pids = { ...Object.fromEntries(APPS.map((app) => [app, platform.pidOf(app)])), 'kube-sim': kubeSimPid(platform) };
    const fromMicros = clockMicros();
    const run = await burst(platform, SLUG, PROFILED, 34);
    window = { fromMicros, toMicros: clockMicros() };
    expect(run.failures).toEqual([]);
  } finally {
    expect(await platform.stop()).toBe(0);
  }
  const lines = [`bench profile: a burst of ${PROFILED} ${SLUG} on SQLite, every app a process, sampled every 1 ms (busy = on-CPU or runnable)`];
  const figures: Record<string, unknown> = {};
  for (const [app, pid] of Object.entries(pids)) {
    const file = join(dir, `${app}.${pid}.cpuprofile`);
    expect(existsSync(file), `${app} (pid ${pid}) wrote no profile`).toBe(true);
    const { path, tree } = writeFlameGraph(`platform-flame-${app}`, file, `${app}: a burst of ${PROFILED} ${SLUG}`, window);
    const packages = selfByPackage(tree).map(([name, micros]) => ({ name, share: micros / Math.max(1, tree.micros) }));
    figures[app] = { busyMs: tree.micros / 1000, busyMsPerLesson: tree.micros / 1000 / PROFILED, selfByPackage: packages, flameGraph: path };
    const top = packages.slice(0, 6).map(({ name, share }) => `${name} ${(100 * share).toFixed(0)} %`);
    lines.push(
      `  ${app.padEnd(14)} ${(tree.micros / 1000 / PROFILED).toFixed(1).padStart(6)} ms busy/lesson   self: ${top.join(', ')}`,
      `  ${''.padEnd(14)} ${path}`,
    );
  }
  if (process.env.BENCH_KEEP_PROFILES) lines.push(`  raw profiles kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  console.log([...lines, `  figures: ${writeBenchReport('platform-profile', { lessons: PROFILED, window, apps: figures })}`].join('\n'));
});
