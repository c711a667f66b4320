import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { NETWORK_AUTOMATION, startTestPlatform, writeBenchReport, type TestPlatform } from '@antidote/testing';
import { expect, it } from 'vitest';
import { cpuMsOf, growthOf, heapOf, heapProbeOf, residentOf, resetPeakOf, type HeapSummary } from '../test/heap-probe.js';
import { SchedulerProcesses, type SchedulerProcess } from '../test/scheduler-processes.js';

/** Lessons held after each step (cumulative); each step's lessons are asked for at once. */
const LEVELS = (process.env.BENCH_MEMORY_LEVELS ?? '10,510,810').split(',').map(Number);
/** How long the lessons are held, untouched, before the settled figures (V8 gives a burst's heap back once allocation is quiet). */
const SETTLE_SECONDS = Number(process.env.BENCH_MEMORY_SETTLE_SECONDS ?? 30);
/** The scheduler's V8 and malloc settings, as the images and `antictl up` start it (docs/deploy.md, "Memory"). */
const NODE_OPTIONS = process.env.BENCH_MEMORY_NODE_OPTIONS ?? '--max-semi-space-size=2';
/** V8 flags node refuses in `NODE_OPTIONS` (`--optimize-for-size`, `--heap-growing-percent`), on the command line, to measure them. */
const NODE_FLAGS = (process.env.BENCH_MEMORY_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/** glibc's malloc settings as the images set them (`MALLOC_ARENA_MAX=1`), and any `MALLOC_*` of the bench's environment, to measure them. */
const MALLOC_ENV = {
  MALLOC_ARENA_MAX: '1',
  ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('MALLOC_') && entry[1] !== undefined)),
};
/**
 * A heap snapshot with each heap figure, summed up by constructor (what grew per lesson held), and one in
 * the middle of each step of 100 or more (what the operations in flight hold). A snapshot leaves the
 * scheduler tens of MiB of RSS: the RSS figures of a run with snapshots are not the scheduler's.
 */
const SNAPSHOTS = process.env.BENCH_MEMORY_SNAPSHOTS === '1' || process.env.BENCH_MEMORY_SNAPSHOTS === 'keep';
/** `BENCH_MEMORY_SNAPSHOTS=keep`: the snapshot files are left for `node tools/scripts/heap-summary.mjs <file>` (their folder is printed). */
const KEEP = process.env.BENCH_MEMORY_SNAPSHOTS === 'keep';
/** Addresses:ports kube-sim answers per lesson of network-automation: every one on a socket of its own (no wildcard 0.0.0.0:22). */
const ENDPOINT_SOCKETS_PER_LESSON = 8;
const { slug: SLUG } = NETWORK_AUTOMATION;

interface Step {
  held: number;
  added: number;
  seconds: number;
  failed: number;
  /** The scheduler's CPU (user + system) per lesson added. */
  cpuMsPerLesson: number;
  peakMiB: number;
  rssMiB: number;
  settledMiB: number;
  heapMiB: number;
  /** Of it, compiled code (grows as V8 optimises, not with lessons). */
  codeMiB: number;
  /** The process's own account before the collection (`process.memoryUsage()`, MiB; each heap space's used / committed). */
  usage: Record<string, unknown>;
}

const MiB = 1024 * 1024;

/** Asks for `count` lessons at once; resolves when each is READY or failed, with the mid-burst heap when asked. */
async function burst(p: TestPlatform<'healthchecker', KubeSim>, count: number, midBurst: () => Promise<void>): Promise<{ seconds: number; failed: number }> {
  const lessons = [];
  for (let i = 0; i < count; i++) lessons.push(await p.newLiveLesson(SLUG));
  const ids = new Set(lessons.map((lesson) => lesson.id));
  const done = () => p.events.filter((event) => ids.has(event.liveLessonId) && (event.status === LiveLessonStatus.READY || event.error));
  const started = Date.now();
  await Promise.all(lessons.map((lesson) => p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id })));
  if (SNAPSHOTS && count >= 100) {
    await expect.poll(() => done().length, { timeout: 600_000, interval: 100 }).toBeGreaterThanOrEqual(count / 4);
    await midBurst();
  }
  await expect.poll(() => done().length, { timeout: 1_200_000, interval: 200 }).toBeGreaterThanOrEqual(count);
  return { seconds: (Date.now() - started) / 1000, failed: done().filter((event) => event.error).length };
}

/**
 * The scheduler's memory per lesson it holds and at a burst's peak: the built scheduler as a process of its
 * own (as deployed, `NODE_OPTIONS` as the images set it) on kube-sim, nats-server and SQLite, the
 * healthchecker in this process; network-automation lessons (6 pods, 3 jobs each) asked for in steps, each
 * step's at once. Per step: its peak RSS, RSS at its end and after `SETTLE_SECONDS`, and the live heap then
 * (a heap snapshot: V8 collects first); what grew per lesson, by constructor, from the first step's heap to
 * the last's. Figures printed, not asserted.
 */
it(`holds ${LEVELS.join(' → ')} lessons and prints the scheduler's memory per lesson held and at each burst's peak`, { timeout: 3_600_000 }, async () => {
  const top = LEVELS.at(-1) ?? 0;
  const p = await startTestPlatform('sqlite', {
    cluster: (options) => startKubeSim({ ...options, sharedListenersAfter: top * ENDPOINT_SOCKETS_PER_LESSON + 1 }),
    services: { healthchecker: healthcheckerService },
    faults: { podStartDelayMs: 0, jobRunDelayMs: 0 },
    overrides: { scheduler: { maxLiveLessons: 0 }, liveLessonTTL: 240 },
  });
  const probes = mkdtempSync(join(tmpdir(), 'scheduler-heap-'));
  const probe = heapProbeOf(probes, SNAPSHOTS);
  const schedulers = new SchedulerProcesses(
    { ...p.config, ...p.nats.loginAs('scheduler') },
    { execArgv: [...NODE_FLAGS, ...probe.execArgv], env: { ...probe.env, NODE_OPTIONS, ...MALLOC_ENV } },
  );
  const steps: Step[] = [];
  const heaps: HeapSummary[] = [];
  const midBursts: string[] = [];
  try {
    const scheduler: SchedulerProcess = await schedulers.start();
    const pid = scheduler.child.pid!;
    const idle = residentOf(pid).rssMiB;
    let held = 0;
    for (const level of LEVELS) {
      const added = level - held;
      resetPeakOf(pid);
      const cpu = cpuMsOf(pid);
      const { seconds, failed } = await burst(p, added, async () => {
        const middle = await heapOf(pid, probes, KEEP);
        const previous = heaps.at(-1);
        midBursts.push(
          `  mid-burst at ${held} + ${added}: live heap ${(middle.bytes / MiB).toFixed(1)} MiB${previous && middle.summary ? `; grown since the last settled heap, per lesson of the step:\n${growthOf(previous, middle.summary, added).join('\n')}` : ''}`,
        );
      });
      held = level;
      const cpuMsPerLesson = (cpuMsOf(pid) - cpu) / added;
      const { peakMiB, rssMiB } = residentOf(pid);
      await sleep(SETTLE_SECONDS * 1000);
      const settledMiB = residentOf(pid).rssMiB;
      const heap = await heapOf(pid, probes, KEEP);
      if (heap.summary) heaps.push(heap.summary);
      steps.push({
        held,
        added,
        seconds,
        failed,
        cpuMsPerLesson,
        peakMiB,
        rssMiB,
        settledMiB,
        heapMiB: heap.bytes / MiB,
        codeMiB: heap.codeBytes / MiB,
        usage: heap.usage,
      });
      console.log(`step: ${JSON.stringify(steps.at(-1))}`);
    }
    const [first, last] = [steps[0], steps.at(-1)!];
    const lessons = last.held - first.held;
    const perLesson = (from: number, to: number) => (((to - from) * MiB) / lessons).toFixed(0);
    console.log(
      [
        `bench scheduler memory (network-automation: 6 pods, 3 jobs a lesson; NODE_OPTIONS=${NODE_OPTIONS}, ${Object.entries(MALLOC_ENV)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}${NODE_FLAGS.length ? `, flags ${NODE_FLAGS.join(' ')}` : ''}; settled = ${SETTLE_SECONDS} s after the step)`,
        `  idle RSS ${idle.toFixed(0)} MiB`,
        `  ${'held'.padStart(6)} ${'added'.padStart(6)} ${'s'.padStart(6)} ${'failed'.padStart(6)} ${'cpu ms'.padStart(7)} ${'peak MiB'.padStart(9)} ${'end MiB'.padStart(8)} ${'settled'.padStart(8)} ${'heap MiB'.padStart(9)}`,
        ...steps.map(
          (s) =>
            `  ${String(s.held).padStart(6)} ${String(s.added).padStart(6)} ${s.seconds.toFixed(1).padStart(6)} ${String(s.failed).padStart(6)} ${s.cpuMsPerLesson.toFixed(1).padStart(7)} ${s.peakMiB.toFixed(0).padStart(9)} ${s.rssMiB.toFixed(0).padStart(8)} ${s.settledMiB.toFixed(0).padStart(8)} ${s.heapMiB.toFixed(1).padStart(9)}`,
        ),
        `  per lesson held (${first.held} → ${last.held}): live heap ${perLesson(first.heapMiB, last.heapMiB)} B (${perLesson(first.heapMiB - first.codeMiB, last.heapMiB - last.codeMiB)} B without compiled code), settled RSS ${perLesson(first.settledMiB, last.settledMiB)} B`,
        ...(heaps.length > 1
          ? [`  what grew per lesson held (self size by constructor / plain objects by their first properties):`, ...growthOf(heaps[0], heaps.at(-1)!, lessons)]
          : []),
        ...midBursts,
        ...(KEEP ? [`  heap snapshots: ${probes}`] : []),
      ].join('\n'),
    );
    console.log(
      `  figures: ${writeBenchReport('scheduler-memory', { nodeOptions: NODE_OPTIONS, nodeFlags: NODE_FLAGS, snapshots: SNAPSHOTS, settleSeconds: SETTLE_SECONDS, idleMiB: idle, steps })}`,
    );
  } catch (error) {
    process.stderr.write(`scheduler's output:\n${schedulers.log.slice(-20_000)}\n`);
    throw error;
  } finally {
    await schedulers.killAll();
    await p.stop();
    if (!KEEP) rmSync(probes, { recursive: true, force: true });
  }
});
