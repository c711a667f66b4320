import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { DATABASE_KINDS, INSTANCE, metricSample, metricsOf, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from '../scheduler.definition.js';

type Platform = TestPlatform<'healthchecker' | 'scheduler', KubeSim>;
const ns = (id: string) => `${INSTANCE}-${id}`;
const LESSON = 'linux-basics';
/** A second pool whose members are never recycled by age: only a curriculum change replaces them. */
const KEPT = 'web-services';
/** An adaptive pool: empty until the api has counted demand for it. */
const ADAPTIVE = 'jupyter-intro';
/** Seconds an unclaimed READY member may wait: small, so recycling shows within the test. */
const MAX_AGE = 8;

/**
 * Warm pools on the real servers: the scheduler keeps a pool READY through the normal CREATE, recycles
 * members older than `maxAge`, replaces members of a lesson the curriculum changed, and labels a claimed
 * member's namespace for its learner when asked.
 */
describe.each(DATABASE_KINDS)('warm pools in the scheduler on kube-sim, nats-server and %s', (kind) => {
  let p: Platform;

  beforeAll(async () => {
    p = await startTestPlatform(kind, {
      cluster: startKubeSim,
      services: { healthchecker: healthcheckerService, scheduler: schedulerService },
      overrides: {
        scheduler: { redriveIntervalSeconds: 1, redriveAfterSeconds: 1, claimLeaseSeconds: 5, poolIntervalSeconds: 1 },
        warmPools: { [LESSON]: { size: 1, maxAge: MAX_AGE }, [KEPT]: { size: 1, maxAge: 0 }, [ADAPTIVE]: { adaptive: true, min: 0, max: 2, maxAge: 0 } },
      },
    });
  });
  afterAll(() => p?.stop());

  const readyMembers = async (slug = LESSON) =>
    (await p.data.pools.members()).filter((m) => m.lessonSlug === slug && m.status === LiveLessonStatus.READY && !m.error && !m.deleteRequestedAt);
  const namespaceOf = (id: string) => p.sim.list('namespaces').find((n) => n.metadata.name === ns(id));

  it('brings a member to READY at stage 0 through the normal CREATE, then recycles it once older than maxAge', async () => {
    await expect.poll(async () => (await readyMembers()).length).toBe(1);
    const [first] = await readyMembers();
    expect(first).toMatchObject({ lessonSlug: LESSON, currentStage: 0, configuredStage: 0, pool: true, sessionId: `pool-${first.id}` });
    expect(namespaceOf(first.id)?.metadata.labels).toMatchObject({ liveLesson: first.id, lessonSlug: LESSON, liveSession: `pool-${first.id}` });
    // Older than maxAge: deleted (row and namespace), a fresh member READY in its place.
    await expect.poll(async () => (await p.data.liveLessons.find(first.id)) === undefined && namespaceOf(first.id) === undefined).toBe(true);
    await expect.poll(async () => (await readyMembers()).filter((m) => m.id !== first.id).length).toBe(1);
  });

  it('labels a claimed member’s namespace for its learner (one PATCH); the pool refills beside it', async () => {
    const patches = () => p.sim.counters.count('patch', 'namespaces');
    const before = patches();
    // Claimed whenever a member is READY (a recycle may leave the pool briefly empty).
    let claimed: Awaited<ReturnType<Platform['data']['pools']['claim']>>;
    await expect.poll(async () => (claimed = await p.data.pools.claim(LESSON, 'learner0001')) !== undefined).toBe(true);
    expect(claimed).toMatchObject({ sessionId: 'learner0001', status: LiveLessonStatus.READY, pool: false });
    expect(await p.bus.request(RequestSubjects.liveLessonBind, { liveLessonId: claimed!.id })).toEqual({ accepted: true });
    expect(namespaceOf(claimed!.id)?.metadata.labels).toMatchObject({ liveSession: 'learner0001', liveLesson: claimed!.id, antidoteManaged: 'yes' });
    expect(patches() - before).toBe(1);
    // The claimed lesson is the learner's now: never recycled by maxAge; the pool refills beside it.
    await expect.poll(async () => (await readyMembers()).filter((m) => m.id !== claimed!.id).length).toBe(1);
    expect(await p.data.liveLessons.find(claimed!.id)).toMatchObject({ sessionId: 'learner0001', status: LiveLessonStatus.READY });
  });

  it('replaces members built from a lesson the curriculum has changed', async () => {
    await expect.poll(async () => (await readyMembers(KEPT)).length).toBe(1);
    const [old] = await readyMembers(KEPT);
    const lesson = await p.data.curriculum.getLesson(KEPT);
    const changed = {
      ...lesson,
      stages: lesson.stages.map((stage, i) => (i === 0 ? { ...stage, guideContents: `${stage.guideContents}\nchanged ${kind}` } : stage)),
    };
    await p.data.curriculum.insertLessons([changed]);
    await expect
      .poll(async () => (await readyMembers(KEPT)).map((m) => [m.id === old.id, m.guideContents]))
      .toEqual([[false, changed.stages[0].guideContents]]);
    await expect.poll(async () => (await p.data.liveLessons.find(old.id)) === undefined).toBe(true);
  });

  it('sizes an adaptive pool from the demand counted in the database, and drains it once the demand is gone', async () => {
    const members = async () => (await p.data.pools.members()).filter((m) => m.lessonSlug === ADAPTIVE && !m.deleteRequestedAt);
    // Heavy demand (as the api counts it): whatever the build time, the need is above max.
    await p.data.poolSizing.recordDemand(ADAPTIVE, 'miss');
    await p.data.dataSource.query(`UPDATE warm_pool_demand SET misses = 100000 WHERE lesson_slug = '${ADAPTIVE}'`);
    await expect.poll(async () => (await members()).filter((m) => m.status === LiveLessonStatus.READY).length).toBe(2);
    expect(await members()).toHaveLength(2);
    // The size it chose is on /metrics (what an operator reads for an adaptive pool).
    await expect.poll(async () => metricSample(await metricsOf(p.running('scheduler')[0].url), 'antidote_pool_target_members', `lesson="${ADAPTIVE}"`)).toBe(2);
    await p.data.dataSource.query('DELETE FROM warm_pool_demand');
    await expect.poll(async () => (await p.data.pools.members()).filter((m) => m.lessonSlug === ADAPTIVE).length).toBe(0);
    expect(metricSample(await metricsOf(p.running('scheduler')[0].url), 'antidote_pool_target_members', `lesson="${ADAPTIVE}"`)).toBe(0);
  });
});
