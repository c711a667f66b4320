import { loadavg } from 'node:os';
import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { INSTANCE, NETWORK_AUTOMATION, startTestPlatform, writeBenchReport, type TestPlatform } from '@antidote/testing';
import type { V1DaemonSet } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { schedulerService } from '../scheduler.definition.js';

/** kube-sim's time to pull any image onto a node (a node's first pod of that image pays it). */
const PULL_MS = Number(process.env.BENCH_PREPULL_PULL_MS ?? 60_000);
const { slug: SLUG } = NETWORK_AUTOMATION;
/** Deadlines beyond every pull a cold lesson (or the DaemonSet, one image after another) can wait for. */
const DEADLINE_SECONDS = Math.ceil((8 * PULL_MS) / 1000) + 60;
const WAIT = { timeout: DEADLINE_SECONDS * 2000, interval: 100 };

type Platform = TestPlatform<'healthchecker' | 'scheduler', KubeSim>;

/** Scheduler + healthchecker on a kube-sim of one node whose image cache starts empty. */
const platform = (prePull: boolean): Promise<Platform> =>
  startTestPlatform('sqlite', {
    cluster: startKubeSim,
    services: { healthchecker: healthcheckerService, scheduler: schedulerService },
    faults: { imagePullDelayMs: PULL_MS },
    overrides: {
      timeouts: { podRunningSeconds: DEADLINE_SECONDS, reachabilitySeconds: DEADLINE_SECONDS, configJobSeconds: DEADLINE_SECONDS, namespaceDeleteSeconds: 20 },
      scheduler: { prePull: { enabled: prePull, resyncSeconds: 1 } },
    },
  });

interface Start {
  label: string;
  /** From the request to the READY status event. */
  ms: number;
  /** Images the node pulled while the lesson's pods waited (the distinct `Pulling` Events in its namespace). */
  pulled: number;
}

/** One live lesson requested as the api does and followed to READY (asserted: a bench may check correctness). */
async function lesson(p: Platform, label: string): Promise<Start> {
  const live = await p.newLiveLesson(SLUG);
  const requestedAt = Date.now();
  expect(await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: live.id })).toEqual({ accepted: true });
  const final = () => p.eventsOf(live.id).find((event) => event.status === LiveLessonStatus.READY || event.error);
  await expect.poll(final, WAIT).toBeDefined();
  const { status, error, failureReason } = final()!;
  expect({ status, error, failureReason }).toEqual({ status: LiveLessonStatus.READY, error: false, failureReason: undefined });
  const pulling = p.sim.list('events', `${INSTANCE}-${live.id}`).filter((event) => event.reason === 'Pulling');
  return { label, ms: Date.parse(final()!.at) - requestedAt, pulled: new Set(pulling.map((event) => event.message)).size };
}

const row = ({ label, ms, pulled }: Start) => `  ${label.padEnd(52)} ${(ms / 1000).toFixed(1).padStart(8)} ${String(pulled).padStart(7)}`;

/**
 * Image pre-pull's effect on a cold lesson (issue 20), scheduler + healthchecker + kube-sim in this
 * process, real nats-server, SQLite: every image takes `BENCH_PREPULL_PULL_MS` (60 s) to pull onto a node.
 * Two platforms, each with a fresh node: on one, network-automation is requested cold, without pre-pull
 * (then once more, its images now cached by the first); on the other, the scheduler's pre-pull DaemonSet
 * is waited for until ready on the node, then the same lesson is requested. The two platforms run side by
 * side (each its own kube-sim, nats-server and database; the pulls are timers, not work), so the run
 * takes as long as the DaemonSet's pulls. Figures only; nothing about time is asserted.
 */
it(`times a cold ${SLUG} with and without pre-pull at ${PULL_MS} ms a pull, and prints the figures`, { timeout: DEADLINE_SECONDS * 6000 }, async () => {
  const [without, withPrePull] = await Promise.all([platform(false), platform(true)]);
  try {
    const cold = async () => [await lesson(without, 'cold node, no pre-pull'), await lesson(without, 'same node again (images cached by the lesson above)')];
    const prePulled = async () => {
      const started = Date.now();
      const set = () => withPrePull.sim.list('daemonsets', 'prod')[0] as unknown as V1DaemonSet | undefined;
      await expect.poll(() => set()?.status?.numberReady, WAIT).toBe(1);
      const readyAfterMs = Date.now() - started;
      const pod = set()?.spec?.template.spec;
      const images = new Set([...(pod?.initContainers ?? []), ...(pod?.containers ?? [])].map((container) => container.image)).size;
      return { readyAfterMs, images, start: await lesson(withPrePull, 'cold node, pre-pull DaemonSet ready on it') };
    };
    const [[first, again], prePull] = await Promise.all([cold(), prePulled()]);
    const starts = [first, again, prePull.start];
    console.log(
      [
        `bench pre-pull: ${SLUG} (3 endpoints, 3 configs) on a one-node kube-sim, every image pull ${PULL_MS} ms, load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
        `  ${'lesson'.padEnd(52)} ${'READY s'.padStart(8)} ${'pulled'.padStart(7)}`,
        ...starts.map(row),
        `  pre-pull DaemonSet: ${prePull.images} images (helper, curriculum, copier, configurator, pause), ready on the node ${(prePull.readyAfterMs / 1000).toFixed(1)} s after the scheduler started`,
      ].join('\n'),
    );
    const json = writeBenchReport('prepull', {
      lesson: SLUG,
      pullMs: PULL_MS,
      nodes: 1,
      loadAverage: loadavg(),
      lessons: starts.map(({ label, ms, pulled }) => ({ label, timeToReadyMs: ms, imagesPulled: pulled })),
      daemonSet: { images: prePull.images, readyAfterMs: prePull.readyAfterMs },
    });
    console.log(`  figures: ${json}`);
  } finally {
    await Promise.all([without.stop(), withPrePull.stop()]);
  }
});
