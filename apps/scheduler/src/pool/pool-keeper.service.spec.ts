import { LiveLessonStatus, SchedulerRejections } from '@antidote/contracts';
import { ReadinessRegistry } from '@antidote/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lessonHarness, type LessonHarness } from '../../test/lesson-harness.js';
import { PoolBinder } from './pool-binder.service.js';
import { PoolKeeper } from './pool-keeper.service.js';

describe('PoolKeeper and PoolBinder', () => {
  let h: LessonHarness;
  let submitted: string[];
  let keeper: PoolKeeper;
  let refills: number;
  let binder: PoolBinder;

  beforeEach(async () => {
    h = await lessonHarness({ config: { warmPools: { 'test-lesson': { size: 2, maxAge: 600 } } } });
    submitted = [];
    refills = 0;
    const scheduler = { submit: (kind: string, id: string) => (submitted.push(`${kind} ${id}`), { queued: true }) as never };
    keeper = new PoolKeeper(h.data, scheduler, h.metrics, new ReadinessRegistry(), h.config);
    binder = new PoolBinder(h.data, h.cluster, { refill: () => void refills++ }, h.config);
  });
  afterEach(() => h.close());

  it('writes the missing members as pool rows at stage 0 with placeholder sessions and submits their CREATE', async () => {
    const plan = await keeper.pass();
    expect(plan.create).toEqual([{ lessonSlug: 'test-lesson', count: 2 }]);
    const members = await h.data.pools.members();
    expect(members.map((m) => [m.pool, m.currentStage, m.status, m.sessionId === `pool-${m.id}`])).toEqual([
      [true, 0, LiveLessonStatus.INITIALIZED, true],
      [true, 0, LiveLessonStatus.INITIALIZED, true],
    ]);
    expect(submitted.sort()).toEqual(members.map((m) => `create ${m.id}`).sort());
    expect((await keeper.pass()).create).toEqual([]);
  });

  it('retires a failed member (its deletion recorded, then DELETE submitted) and builds a replacement', async () => {
    await keeper.pass();
    const [failed] = await h.data.pools.members();
    await h.data.liveLessons.markFailed(failed.id, 'broken');
    submitted = [];
    const plan = await keeper.pass();
    expect(plan.retire).toEqual([{ id: failed.id, lessonSlug: 'test-lesson', reason: 'failed' }]);
    expect((await h.data.liveLessons.get(failed.id)).deleteRequestedAt).toBeDefined();
    expect(submitted.filter((s) => s.startsWith('delete'))).toEqual([`delete ${failed.id}`]);
    expect(submitted.filter((s) => s.startsWith('create'))).toHaveLength(1);
  });

  it('labels the namespace of a claimed member for its session and asks for a refill; refuses an unclaimed member', async () => {
    await keeper.pass();
    const [member] = await h.data.pools.members();
    expect(await binder.bind(member.id)).toMatchObject({ accepted: false, code: SchedulerRejections.notClaimed });
    expect(await binder.bind('nosuchlesson')).toMatchObject({ accepted: false, code: SchedulerRejections.notFound });
    await h.data.liveLessons.updateStatus(member.id, LiveLessonStatus.READY);
    expect((await h.data.pools.claim('test-lesson', 'learner01'))?.id).toBe(member.id);
    expect(await binder.bind(member.id)).toEqual({ accepted: true });
    expect(h.cluster.labels.get(h.namespaceOf(member.id))).toEqual({ liveSession: 'learner01', lastAccessed: expect.stringMatching(/^\d+$/) });
    expect(refills).toBe(1);
  });
});
