import { LiveLessonStatus } from '@antidote/contracts';
import type { DataManager } from '@antidote/data';
import { makeNewLiveLesson, memoryDatabase } from '@antidote/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeReaperCluster } from '../cluster/reaper-cluster.fake.js';
import { PassPlanner } from './pass-planner.js';

const T0 = new Date('2026-06-01T12:00:00Z').getTime();
const MIN = 60_000;
const policy = {
  liveLessonTTLMinutes: 30,
  liveSessionTTLMinutes: 1440,
  failedLiveLessonTTLMinutes: 60,
  orphanGraceSeconds: 300,
  stuckTerminatingSeconds: 600,
  removeStuckFinalizers: false,
  pageSize: 7,
};

describe('PassPlanner', () => {
  let clock: number;
  let data: DataManager;
  let cluster: FakeReaperCluster;
  const at = (ms: number) => new Date(T0 + ms);
  const planner = (overrides: Partial<typeof policy> = {}) => new PassPlanner(data, cluster, { ...policy, ...overrides });
  /** A session and a live lesson in it, written at the database clock (T0 unless moved). */
  const lesson = async (id: string, options: { persistent?: boolean; status?: LiveLessonStatus } = {}) => {
    await data.liveSessions.create({ id: `s-${id}`, sourceIp: '127.0.0.1', persistent: options.persistent ?? false });
    await data.liveLessons.create(makeNewLiveLesson({ id, sessionId: `s-${id}` }));
    if (options.status) await data.liveLessons.updateStatus(id, options.status);
    // Its namespace exists, so it is not an orphan record.
    cluster.add({ name: `ns-${id}`, liveLessonId: id, createdAt: at(0) });
  };

  beforeEach(async () => {
    clock = T0;
    data = await memoryDatabase(() => new Date(clock));
    cluster = new FakeReaperCluster();
  });
  afterEach(() => data.close());

  describe('idle live lessons (TTL 30 min, inclusive)', () => {
    it.each([
      ['idle 1 ms short of the TTL', 30 * MIN - 1, []],
      ['idle exactly the TTL', 30 * MIN, ['expire-live-lesson']],
      ['idle an hour', 60 * MIN, ['expire-live-lesson']],
    ])('%s', async (_case, idle, actions) => {
      await lesson('idle00001');
      const plan = await planner().plan(at(idle));
      expect(plan.actions.map((action) => action.action)).toEqual(actions);
      expect(plan.errors).toEqual([]);
    });

    it('keeps an idle lesson of a persistent session', async () => {
      await lesson('persist01', { persistent: true });
      expect((await planner().plan(at(600 * MIN))).actions).toEqual([]);
    });

    it('leaves a lesson already being deleted to the scheduler', async () => {
      await lesson('deleting1');
      await data.liveLessons.requestDeletion('deleting1');
      expect((await planner().plan(at(600 * MIN))).actions).toEqual([]);
    });
  });

  describe('failed live lessons (TTL 60 min from the failure, persistent or not)', () => {
    it.each([
      ['failed 1 ms short of the TTL', 60 * MIN - 1, []],
      ['failed exactly the TTL ago', 60 * MIN, ['expire-failed-live-lesson']],
    ])('%s', async (_case, sinceFailure, actions) => {
      await lesson('failed001', { persistent: true });
      clock = T0 + 10 * MIN;
      await data.liveLessons.markFailed('failed001', 'pods never came up');
      const plan = await planner().plan(at(10 * MIN + sinceFailure));
      expect(plan.actions.map((action) => action.action)).toEqual(actions);
      if (actions.length) expect(plan.actions[0]?.reason).toMatch(/pods never came up/);
    });
  });

  describe('sessions (TTL a day from the last activity)', () => {
    it.each([
      ['idle a day minus 1 ms, no lessons', 1440 * MIN - 1, false, []],
      ['idle a day, no lessons', 1440 * MIN, false, ['delete-session']],
      ['idle a day, persistent', 1440 * MIN, true, []],
    ])('%s', async (_case, idle, persistent, actions) => {
      await data.liveSessions.create({ id: 'session01', sourceIp: '127.0.0.1', persistent });
      const plan = await planner().plan(at(idle));
      expect(plan.actions.map((action) => [action.action, action.target])).toEqual(actions.map((action) => [action, 'session01']));
    });

    it('keeps an idle session that still has a live lesson', async () => {
      await lesson('inuse0001', { persistent: false });
      const plan = await planner({ liveLessonTTLMinutes: 100_000 }).plan(at(2000 * MIN));
      expect(plan.actions).toEqual([]);
    });
  });

  describe('namespaces (one paged list)', () => {
    it('asks for one list with the configured page size', async () => {
      await planner().plan(at(0));
      expect(cluster.calls).toEqual(['listManagedNamespaces']);
      expect(cluster.pageSizes).toEqual([7]);
    });

    it.each([
      ['without a record, past the grace', { liveLessonId: 'gone00001', createdAt: at(-300_000) }, ['delete-orphan-namespace'], 0],
      ['without a record, 1 ms within the grace', { liveLessonId: 'gone00001', createdAt: at(-299_999) }, [], 0],
      ['without a liveLesson label', { createdAt: at(-600 * MIN) }, ['skip-bad-record'], 1],
      ['Terminating 1 ms short of stuck', { liveLessonId: 'gone00001', deletingSince: at(-600_000 + 1) }, [], 0],
    ])('%s', async (_case, namespace, actions, skipped) => {
      cluster.add({ name: 'ns-x', ...namespace });
      const plan = await planner().plan(at(0));
      expect(plan.actions.map((action) => [action.action, action.target])).toEqual(actions.map((action) => [action, 'ns-x']));
      expect(plan.skipped).toBe(skipped);
    });

    it.each([
      [false, ['report-stuck-namespace']],
      [true, ['report-stuck-namespace', 'remove-stuck-finalizers']],
    ])('reports a namespace Terminating for the stuck time with what blocks it (remove finalizers: %s)', async (remove, actions) => {
      const resources = [{ kind: 'Pod', name: 'linux1', finalizers: ['example.com/hold'] }];
      cluster.add({ name: 'ns-stuck', liveLessonId: 'gone00001', deletingSince: at(-600_000), finalizers: ['kubernetes'], conditions: ['content remaining'] });
      cluster.blocking.set('ns-stuck', resources);
      const plan = await planner({ removeStuckFinalizers: remove }).plan(at(0));
      expect(plan.actions.map((action) => action.action)).toEqual(actions);
      expect(plan.actions[0]?.details).toMatchObject({ finalizers: ['kubernetes'], conditions: ['content remaining'], resources });
      expect(plan.actions.at(-1)?.details).toMatchObject({ resources });
    });

    it('skips a namespace whose blocking objects cannot be read, and judges the rest', async () => {
      cluster.add({ name: 'ns-stuck', liveLessonId: 'gone00001', deletingSince: at(-600_000) });
      cluster.add({ name: 'ns-orphan', liveLessonId: 'gone00002', createdAt: at(-600_000) });
      cluster.fail('blockingResources', new Error('403 Forbidden'));
      const plan = await planner().plan(at(0));
      expect(plan.actions.map((action) => [action.action, action.target, action.reason])).toEqual([
        ['skip-bad-record', 'ns-stuck', '403 Forbidden'],
        ['delete-orphan-namespace', 'ns-orphan', 'no live lesson gone00002 in the database'],
      ]);
      expect(plan.skipped).toBe(1);
      expect(plan.errors).toEqual([]);
    });
  });

  describe('orphan records (provisioned, no namespace, past the grace)', () => {
    const orphan = async (status: LiveLessonStatus) => {
      await lesson('orphan001', { status });
      cluster.namespaces.delete('ns-orphan001');
    };

    it.each([
      ['READY, untouched exactly the grace', LiveLessonStatus.READY, 300_000, ['remove-orphan-record']],
      ['READY, untouched 1 ms short of the grace', LiveLessonStatus.READY, 300_000 - 1, []],
      ['INITIALIZED (its namespace may be coming)', LiveLessonStatus.INITIALIZED, 600_000, []],
    ])('%s', async (_case, status, untouched, actions) => {
      await orphan(status);
      const plan = await planner({ liveLessonTTLMinutes: 100_000 }).plan(at(untouched));
      expect(plan.actions.map((action) => action.action)).toEqual(actions);
    });

    it('keeps a record claimed by a scheduler', async () => {
      await orphan(LiveLessonStatus.BOOTING);
      expect(await data.work.claim('orphan001', 'scheduler-1', 3_600_000)).toBe(true);
      expect((await planner({ liveLessonTTLMinutes: 100_000 }).plan(at(600_000))).actions).toEqual([]);
    });

    it('keeps a record whose deletion is already requested', async () => {
      await orphan(LiveLessonStatus.READY);
      await data.liveLessons.requestDeletion('orphan001');
      expect((await planner({ liveLessonTTLMinutes: 100_000 }).plan(at(600_000))).actions).toEqual([]);
    });
  });

  it('goes on with the other steps when one fails, and names the failed step', async () => {
    await data.liveSessions.create({ id: 'session01', sourceIp: '127.0.0.1' });
    cluster.fail('listManagedNamespaces', new Error('API down'));
    const plan = await planner().plan(at(1440 * MIN));
    expect(plan.errors).toEqual(['namespaces: API down']);
    expect(plan.actions.map((action) => action.action)).toEqual(['delete-session']);
  });

  it('reports the database failing as an error of each step, never a throw', async () => {
    await data.close();
    const plan = await planner().plan(at(0));
    expect(plan.errors.map((error) => error.split(':')[0])).toEqual(['idle and failed live lessons', 'sessions', 'namespaces']);
    data = await memoryDatabase();
  });
});
