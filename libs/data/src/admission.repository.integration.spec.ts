import { LiveLessonStatus } from '@antidote/contracts';
import { DATABASE_KINDS, makeNewLiveLesson, testDatabase, type TestDatabase } from '@antidote/testing';
import type { EntityManager } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataSource, DataManager, type EnqueueResult } from './index.js';

const T0 = new Date('2026-03-01T08:00:00Z').getTime();

describe.each(DATABASE_KINDS)('admission queue and rate buckets on %s', (kind) => {
  let db: TestDatabase;
  /** A second connection pool on the same database: another replica. */
  let replica: DataManager;
  let clock = T0;
  let ids = 0;
  beforeAll(async () => {
    db = await testDatabase(kind, () => new Date(clock));
    const dataSource = createDataSource({ url: db.url, poolSize: 5, migrateOnStart: false });
    await dataSource.initialize();
    replica = new DataManager(dataSource, () => new Date(clock));
  });
  afterAll(async () => {
    await replica?.close();
    await db?.close();
  });
  beforeEach(async () => {
    // Each case starts from an empty cluster and queue.
    for (const id of await db.data.liveLessons.ids()) await db.data.liveLessons.delete(id);
    await db.data.admission.drain(1, new Date(0));
    await db.data.admissionStats.settle(new Date(clock + 1));
  });

  /** A learner's request from `client`: its row, then its ticket. */
  const request = async (client: string, limits = { cap: 2, maxQueued: 100 }, data = db.data): Promise<{ id: string; result: EnqueueResult }> => {
    const id = `ll${kind.slice(0, 2)}${String(++ids).padStart(6, '0')}`;
    await data.liveLessons.create(makeNewLiveLesson({ id, sessionId: `s-${id}`, lessonSlug: `lesson-${id}` }));
    return { id, result: await data.admission.enqueue({ liveLessonId: id, sessionId: `s-${id}`, client, lessonSlug: `lesson-${id}` }, limits) };
  };
  const waitingOrder = async (): Promise<string[]> => (await db.data.admission.waiting()).map((ticket) => ticket.client);

  it('admits at once while there is capacity, then queues; a freed slot admits the head', async () => {
    const first = await request('a');
    const second = await request('a');
    const third = await request('b');
    expect([first.result, second.result, third.result]).toEqual([{ kind: 'admitted' }, { kind: 'admitted' }, { kind: 'waiting', position: 1 }]);
    expect(await db.data.admission.holding()).toBe(2);
    expect(await db.data.admission.drain(2, new Date(0))).toMatchObject({ admitted: [], waiting: 1 });
    await db.data.liveLessons.delete(first.id);
    const drained = await db.data.admission.drain(2, new Date(0));
    expect(drained.admitted.map((ticket) => ticket.liveLessonId)).toEqual([third.id]);
    expect(drained.waiting).toBe(0);
    expect((await db.data.admission.find(third.id))?.admittedAt).toBeInstanceOf(Date);
  });

  it('serves clients round-robin, each client first come first served, and positions only go down as it drains', async () => {
    await request('x');
    await request('x');
    const queued: string[] = [];
    for (const client of ['a', 'a', 'a', 'b', 'b', 'c']) queued.push((await request(client)).id);
    expect(await waitingOrder()).toEqual(['a', 'b', 'c', 'a', 'b', 'a']);
    const last = queued[2];
    const seen: number[] = [(await db.data.admission.position(last))!.position];
    const served: string[] = [];
    for (let i = 0; i < 6; i++) {
      const [running] = (await db.data.admissionStats.holders()).map((holder) => holder.liveLessonId);
      await db.data.liveLessons.delete(running);
      served.push(...(await db.data.admission.drain(2, new Date(0))).admitted.map((ticket) => ticket.client));
      const position = await db.data.admission.position(last);
      if (position) seen.push(position.position);
    }
    expect(served).toEqual(['a', 'b', 'c', 'a', 'b', 'a']);
    expect(seen).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it("puts a newcomer's first request ahead of another client's later ones, never ahead of a first", async () => {
    await request('x');
    await request('x');
    await request('a');
    await request('a');
    await request('b');
    expect(await waitingOrder()).toEqual(['a', 'b', 'a']);
  });

  it('is bounded: past maxQueued the answer is full and nothing is queued', async () => {
    const limits = { cap: 1, maxQueued: 2 };
    await request('a', limits);
    await request('a', limits);
    await request('b', limits);
    expect((await request('c', limits)).result).toEqual({ kind: 'full', waiting: 2 });
    expect(await db.data.admission.waitingCount()).toBe(2);
  });

  it('writes the lab with its ticket in one transaction: admitted or waiting, both there; full, neither; a failed write, neither', async () => {
    const limits = { cap: 1, maxQueued: 1 };
    const withRow = async (client: string, limits: { cap: number; maxQueued: number }, fail = false) => {
      const id = `ll${kind.slice(0, 2)}${String(++ids).padStart(6, '0')}`;
      const ticket = { liveLessonId: id, sessionId: `s-${id}`, client, lessonSlug: `lesson-${id}` };
      const writeLab = async (manager: EntityManager) => {
        await db.data.liveLessons.create(makeNewLiveLesson({ id, sessionId: `s-${id}`, lessonSlug: `lesson-${id}` }), manager);
        if (fail) throw new Error('the row could not be written');
      };
      const result = await db.data.admission.enqueue(ticket, limits, writeLab).catch((error: unknown) => error as Error);
      return { id, result, row: await db.data.liveLessons.find(id), ticket: await db.data.admission.find(id) };
    };
    const admitted = await withRow('a', limits);
    expect(admitted).toMatchObject({
      result: { kind: 'admitted' },
      row: { id: admitted.id, endpoints: expect.any(Array) },
      ticket: { admittedAt: expect.any(Date) },
    });
    const waiting = await withRow('b', limits);
    expect(waiting).toMatchObject({ result: { kind: 'waiting', position: 1 }, row: { id: waiting.id }, ticket: { admittedAt: null } });
    const full = await withRow('c', limits);
    expect(full).toMatchObject({ result: { kind: 'full', waiting: 1 }, row: undefined, ticket: undefined });
    const failed = await withRow('d', { cap: 0, maxQueued: 1 }, true);
    expect(failed.result).toBeInstanceOf(Error);
    expect([failed.row, failed.ticket]).toEqual([undefined, undefined]);
    const unlimited = await withRow('e', { cap: 0, maxQueued: 1 });
    expect(unlimited).toMatchObject({ result: { kind: 'admitted' }, row: { id: unlimited.id }, ticket: { admittedAt: expect.any(Date) } });
  });

  it('drops tickets of labs deleted while waiting, and tickets nobody asked about', async () => {
    const limits = { cap: 1, maxQueued: 10 };
    await request('x', limits);
    const gone = await request('a', limits);
    const quiet = await request('b', limits);
    const asked = await request('c', limits);
    await db.data.liveLessons.requestDeletion(gone.id);
    clock += 60_000;
    await db.data.admission.seen([asked.id]);
    // Its learner is there: the lab's idle clock restarts too (the reaper expires idle labs, waiting ones included).
    expect((await db.data.liveLessons.get(asked.id)).lastActiveAt.getTime()).toBe(clock);
    const drained = await db.data.admission.drain(1, new Date(clock - 30_000));
    expect(drained).toMatchObject({ admitted: [], cancelled: [gone.id], abandoned: [quiet.id], waiting: 1 });
    expect((await db.data.admission.position(asked.id))?.position).toBe(1);
    expect(await db.data.admissionStats.history(new Date(T0))).toMatchObject({ abandoned: 1 });
  });

  // SQLite replicas are processes (one connection each): two connections in one process would wait for
  // each other's write lock on a blocked event loop. There, the same calls run at once on one connection.
  it('never admits past the cap when two replicas drain and enqueue at once', async () => {
    const other = kind === 'postgres' ? replica : db.data;
    const limits = { cap: 3, maxQueued: 100 };
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => request(`c${i % 4}`, limits, i % 2 ? other : db.data)));
    expect(results.filter(({ result }) => result.kind === 'admitted')).toHaveLength(3);
    expect(await db.data.admission.waitingCount()).toBe(9);
    const admitted = new Set<string>();
    for (let round = 0; round < 4; round++) {
      const holders = (await db.data.admissionStats.holders()).map((holder) => holder.liveLessonId);
      for (const id of holders) await db.data.liveLessons.delete(id);
      const passes = await Promise.all([db.data.admission.drain(3, new Date(0)), other.admission.drain(3, new Date(0))]);
      const now = passes.flatMap((pass) => pass.admitted.map((ticket) => ticket.liveLessonId));
      expect(now.length).toBeLessThanOrEqual(3);
      for (const id of now) expect(admitted.has(id)).toBe(false);
      for (const id of now) admitted.add(id);
      expect(await db.data.admission.holding()).toBeLessThanOrEqual(3);
    }
    expect(admitted.size).toBe(9);
  });

  it('counts lifetimes of ended labs and waits of queued requests; finds admitted labs nobody started', async () => {
    const limits = { cap: 1, maxQueued: 10 };
    const running = await request('a', limits);
    const next = await request('b', limits);
    clock += 40_000;
    await db.data.liveLessons.delete(running.id);
    await db.data.admission.drain(1, new Date(0));
    await db.data.admissionStats.settle(new Date(0));
    expect(await db.data.admissionStats.history(new Date(T0))).toMatchObject({ lifetimes: [40], waits: [40], abandoned: 0 });
    clock += 10_000;
    expect(await db.data.admissionStats.admittedNotStarted(new Date(clock - 5_000))).toEqual([next.id]);
    await db.data.liveLessons.updateStatus(next.id, LiveLessonStatus.BOOTING);
    expect(await db.data.admissionStats.admittedNotStarted(new Date(clock - 5_000))).toEqual([]);
  });

  it('leaves a waiting lab out of the re-drive until it is admitted', async () => {
    const limits = { cap: 1, maxQueued: 10 };
    const running = await request('a', limits);
    const waiting = await request('b', limits);
    clock += 60_000;
    const due = async (): Promise<string[]> =>
      (await db.data.work.findNeedingWork({ owner: 'nobody', unclaimedBefore: new Date(clock), limit: 100 })).map((lesson) => lesson.id);
    expect(await due()).toEqual([running.id]);
    await db.data.liveLessons.delete(running.id);
    await db.data.admission.drain(1, new Date(0));
    expect(await due()).toEqual([waiting.id]);
  });

  it('takes tokens from a bucket shared by replicas, refilled continuously', async () => {
    const rate = { count: 3, perSeconds: 60 };
    const takes = await Promise.all(
      Array.from({ length: 5 }, (_, i) => (i % 2 && kind === 'postgres' ? replica : db.data).rateBuckets.take('session:10.0.0.1', rate)),
    );
    expect(takes.filter((wait) => wait === 0)).toHaveLength(3);
    expect(takes.filter((wait) => wait > 0).every((wait) => wait >= 1 && wait <= 20)).toBe(true);
    expect(await db.data.rateBuckets.take('session:10.0.0.2', rate)).toBe(0);
    clock += 20_000;
    expect(await db.data.rateBuckets.take('session:10.0.0.1', rate)).toBe(0);
    expect(await db.data.rateBuckets.take('session:10.0.0.1', rate)).toBeGreaterThan(0);
    expect(await db.data.rateBuckets.take('session:10.0.0.1', { count: 0, perSeconds: 60 })).toBe(0);
  });
});
