import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { INSTANCE, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from './scheduler.definition.js';

type Platform = TestPlatform<'healthchecker' | 'scheduler', KubeSim>;
const services = { healthchecker: healthcheckerService, scheduler: schedulerService };
const OPERATIONS = 2;
const ns = (id: string) => `${INSTANCE}-${id}`;

/**
 * Issue 23: at ~2,490 lessons 16 lessons that could never become reachable held all 16 operation slots
 * for the 600 s reachability timeout and every lesson behind them stalled. Waiting holds no slot: more
 * lessons stuck in the reachability wait than `maxConcurrentOperations` do not keep another from READY.
 */
describe('lessons that never become reachable', () => {
  let p: Platform;

  beforeAll(async () => {
    p = await startTestPlatform('sqlite', {
      cluster: startKubeSim,
      services,
      // vqfx2 (network-automation only) never answers; linux-basics has no vqfx2.
      faults: { unreachable: ['vqfx2'] },
      overrides: {
        scheduler: { maxConcurrentOperations: OPERATIONS, redriveIntervalSeconds: 1, redriveAfterSeconds: 1, claimLeaseSeconds: 5 },
        timeouts: { podRunningSeconds: 600, reachabilitySeconds: 3600, configJobSeconds: 600, namespaceDeleteSeconds: 600 },
      },
    });
  });
  afterAll(() => p?.stop());

  it(`hold no slot: with ${OPERATIONS + 1} of them waiting (slots: ${OPERATIONS}), another lesson still becomes READY`, async () => {
    const stuck = await Promise.all(Array.from({ length: OPERATIONS + 1 }, () => p.newLiveLesson('network-automation')));
    for (const lesson of stuck) expect(await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id })).toEqual({ accepted: true });
    // Every stuck lesson is past its writes and waiting for reachability: all its pods Running.
    const waitingForReachability = (id: string) => {
      const pods = p.sim.list('pods', ns(id)).filter((pod) => !pod.metadata.labels?.configPod);
      return pods.length === 3 && pods.every((pod) => pod.status?.phase === 'Running');
    };
    await expect.poll(() => stuck.every((lesson) => waitingForReachability(lesson.id))).toBe(true);

    const healthy = await p.newLiveLesson('linux-basics');
    expect(await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: healthy.id })).toEqual({ accepted: true });
    await expect.poll(async () => (await p.data.liveLessons.find(healthy.id))?.status).toBe(LiveLessonStatus.READY);

    // The stuck ones are still waiting (not failed, not cut short to make room).
    for (const lesson of stuck) expect(await p.data.liveLessons.find(lesson.id)).toMatchObject({ status: LiveLessonStatus.BOOTING, error: false });
  });
});
