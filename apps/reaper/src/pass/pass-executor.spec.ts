import { Logger } from '@nestjs/common';
import { ErrorCodes, RequestSubjects } from '@antidote/contracts';
import { NotFoundError, type DataManager } from '@antidote/data';
import { BusRequestError } from '@antidote/messaging';
import { FakeBus, makeNewLiveLesson, memoryDatabase } from '@antidote/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeReaperCluster } from '../cluster/reaper-cluster.fake.js';
import { PassExecutor } from './pass-executor.js';
import type { ReaperAction } from './reaper-action.js';

const T0 = new Date('2026-06-01T12:00:00Z').getTime();
const DAY = 1440 * 60_000;
const ID = 'abcdef0123';
const SESSION = 'session0001';

describe('PassExecutor', () => {
  let data: DataManager;
  let cluster: FakeReaperCluster;
  let bus: FakeBus;
  let executor: PassExecutor;
  const act = (action: ReaperAction['action'], target: string, details?: Record<string, unknown>): ReaperAction => ({
    action,
    target,
    reason: 'spec',
    ...(details ? { details } : {}),
  });
  const lesson = async () => {
    await data.liveSessions.create({ id: SESSION, sourceIp: '127.0.0.1' });
    await data.liveLessons.create(makeNewLiveLesson({ id: ID, sessionId: SESSION }));
  };

  beforeEach(async () => {
    data = await memoryDatabase(() => new Date(T0));
    cluster = new FakeReaperCluster();
    bus = new FakeBus();
    executor = new PassExecutor(data, cluster, bus, 1440);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await data.close();
  });

  describe.each(['expire-live-lesson', 'expire-failed-live-lesson'] as const)('%s', (action) => {
    it('records the deletion, then asks a scheduler to delete it, with the action as the reason', async () => {
      await lesson();
      bus.answer(RequestSubjects.liveLessonDelete, async ({ liveLessonId }) => {
        // The row says "delete" before the request goes out.
        expect((await data.liveLessons.get(liveLessonId)).deleteRequestedAt).toBeDefined();
        return { accepted: true };
      });
      expect(await executor.execute(act(action, ID), new Date(T0))).toBe(true);
      expect(bus.requests).toEqual([
        {
          subject: RequestSubjects.liveLessonDelete,
          payload: { liveLessonId: ID, reason: action },
          options: expect.objectContaining({ correlationId: ID }) as unknown,
        },
      ]);
      expect(cluster.calls).toEqual([]);
    });

    it('keeps the recorded deletion and says so when no scheduler answers', async () => {
      await lesson();
      const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      expect(await executor.execute(act(action, ID), new Date(T0))).toBe(true);
      expect((await data.liveLessons.get(ID)).deleteRequestedAt).toBeDefined();
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`delete of ${ID} did not reach a scheduler \\(no responders`)));
    });

    it('fails with NotFoundError, and sends nothing, when the record is gone', async () => {
      await expect(executor.execute(act(action, ID), new Date(T0))).rejects.toBeInstanceOf(NotFoundError);
      expect(bus.requests).toEqual([]);
    });
  });

  describe('delete-session (guarded: still idle and empty at the moment of the delete)', () => {
    it.each([
      ['idle exactly the TTL', DAY, true],
      ['idle 1 ms short of the TTL', DAY - 1, false],
    ])('%s → %s', async (_case, idle, deleted) => {
      await data.liveSessions.create({ id: SESSION, sourceIp: '127.0.0.1' });
      expect(await executor.execute(act('delete-session', SESSION), new Date(T0 + idle))).toBe(deleted);
      expect(await data.liveSessions.find(SESSION)).toEqual(deleted ? undefined : expect.objectContaining({ id: SESSION }));
    });

    it('does not apply when the session got a live lesson since the plan', async () => {
      await lesson();
      expect(await executor.execute(act('delete-session', SESSION), new Date(T0 + 2 * DAY))).toBe(false);
      expect(await data.liveSessions.find(SESSION)).toBeDefined();
    });

    it('does not apply when the session is gone already', async () => {
      expect(await executor.execute(act('delete-session', SESSION), new Date(T0 + 2 * DAY))).toBe(false);
    });
  });

  it('deletes an orphan namespace (no wait), and lets the API error through', async () => {
    cluster.add({ name: 'ns-orphan', liveLessonId: ID });
    expect(await executor.execute(act('delete-orphan-namespace', 'ns-orphan'), new Date(T0))).toBe(true);
    expect(cluster.namespaces.get('ns-orphan')?.deletingSince).toBeDefined();
    const forbidden = new Error('403 Forbidden');
    cluster.fail('deleteNamespace', forbidden);
    await expect(executor.execute(act('delete-orphan-namespace', 'ns-orphan'), new Date(T0))).rejects.toBe(forbidden);
  });

  it('removes an orphan record, idempotently', async () => {
    await lesson();
    expect(await executor.execute(act('remove-orphan-record', ID), new Date(T0))).toBe(true);
    expect(await data.liveLessons.find(ID)).toBeUndefined();
    expect(await executor.execute(act('remove-orphan-record', ID), new Date(T0))).toBe(true);
  });

  it.each([
    ['all the blocking objects planned', 1, true],
    ['none planned (the details are missing)', 0, false],
  ])('removes the finalizers of a stuck namespace: %s', async (_case, planned, finalized) => {
    const resources = [{ kind: 'Pod', name: 'linux1', finalizers: ['example.com/hold'] }];
    cluster.add({ name: 'ns-stuck', deletingSince: new Date(0) });
    cluster.blocking.set('ns-stuck', resources);
    expect(await executor.execute(act('remove-stuck-finalizers', 'ns-stuck', planned ? { resources } : undefined), new Date(T0))).toBe(true);
    expect(cluster.calls).toEqual([`removeFinalizers ns-stuck ${planned}`]);
    expect(cluster.namespaces.has('ns-stuck')).toBe(!finalized);
  });

  it.each(['report-stuck-namespace', 'skip-bad-record'] as const)('%s only reports: no call, no write', async (action) => {
    await lesson();
    expect(await executor.execute(act(action, 'ns-x'), new Date(T0))).toBe(true);
    expect(cluster.calls).toEqual([]);
    expect(bus.requests).toEqual([]);
    expect((await data.liveLessons.get(ID)).deleteRequestedAt).toBeUndefined();
  });

  it('lets a scheduler rejection through as a logged warning, not a failure of the pass', async () => {
    await lesson();
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    bus.answer(RequestSubjects.liveLessonDelete, () =>
      Promise.reject(new BusRequestError(ErrorCodes.internal, 'scheduler broke', RequestSubjects.liveLessonDelete)),
    );
    expect(await executor.execute(act('expire-live-lesson', ID), new Date(T0))).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('scheduler broke'));
  });
});
