import { DataErrorCodes, LiveLessonStatus } from '@antidote/contracts';
import { DATABASE_KINDS, makeNewLiveLesson, testDatabase, type TestDatabase } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataSource, DataManager, poolSessionId } from './index.js';

describe.each(DATABASE_KINDS)('warm pools on %s', (kind) => {
  let db: TestDatabase;
  /** A second connection pool on the same database: another api replica. */
  let replica: DataManager;
  const clock = new Date('2026-01-01T00:00:00Z');
  beforeAll(async () => {
    db = await testDatabase(kind, () => clock);
    const dataSource = createDataSource({ url: db.url, poolSize: 5, migrateOnStart: false });
    await dataSource.initialize();
    replica = new DataManager(dataSource, () => clock);
  });
  afterAll(async () => {
    await replica?.close();
    await db?.close();
  });

  async function member(id: string, lessonSlug: string, status: LiveLessonStatus = LiveLessonStatus.READY): Promise<void> {
    await db.data.liveLessons.create(makeNewLiveLesson({ id, sessionId: poolSessionId(id), lessonSlug, pool: true }));
    if (status !== LiveLessonStatus.INITIALIZED) await db.data.liveLessons.updateStatus(id, status);
  }

  it('claims only a READY, healthy, unclaimed member of the lesson and binds it to the session', async () => {
    await member('p-booting', 'alpha', LiveLessonStatus.BOOTING);
    await member('p-other', 'beta');
    await member('p-failed', 'alpha');
    await db.data.liveLessons.markFailed('p-failed', 'broken');
    expect(await db.data.pools.claim('alpha', 's1')).toBeUndefined();
    await member('p-ready', 'alpha');
    const claimed = await db.data.pools.claim('alpha', 's1');
    expect(claimed).toMatchObject({ id: 'p-ready', sessionId: 's1', pool: false, status: LiveLessonStatus.READY });
    expect(await db.data.liveLessons.idsForSession('s1')).toEqual(['p-ready']);
    expect(await db.data.pools.claim('alpha', 's2')).toBeUndefined();
    expect((await db.data.pools.members()).map((m) => m.id).sort()).toEqual(['p-booting', 'p-failed', 'p-other']);
  });

  it('refuses a second live lesson of the same lesson for one session', async () => {
    await member('p-dup-1', 'gamma');
    await member('p-dup-2', 'gamma');
    expect((await db.data.pools.claim('gamma', 's-dup'))?.id).toBe('p-dup-1');
    await expect(db.data.pools.claim('gamma', 's-dup')).rejects.toMatchObject({ code: DataErrorCodes.duplicate });
    expect((await db.data.liveLessons.get('p-dup-2')).pool).toBe(true);
  });

  it('never hands one member to two concurrent claims from two replicas', async () => {
    await member('p-race-1', 'delta');
    await member('p-race-2', 'delta');
    const sessions = Array.from({ length: 8 }, (_, i) => `race-${i}`);
    const claims = await Promise.all(sessions.map((session, i) => (i % 2 ? replica : db.data).pools.claim('delta', session)));
    const won = claims.filter((claim) => claim !== undefined);
    expect(won.map((claim) => claim.id).sort()).toEqual(['p-race-1', 'p-race-2']);
    expect(new Set(won.map((claim) => claim.sessionId)).size).toBe(2);
    for (const claim of won) expect((await db.data.liveLessons.get(claim.id)).sessionId).toBe(claim.sessionId);
  });

  it('retires an unclaimed member only: a claim and a retirement never both win', async () => {
    await member('p-retire', 'epsilon');
    await member('p-keep', 'epsilon');
    const [retired, claimed] = await Promise.all([replica.pools.retire('p-retire'), db.data.pools.claim('epsilon', 's-retire')]);
    const lesson = await db.data.liveLessons.get('p-retire');
    if (retired) expect([lesson.pool, lesson.deleteRequestedAt !== undefined, claimed?.id]).toEqual([true, true, 'p-keep']);
    else expect([lesson.pool, lesson.sessionId, claimed?.id]).toEqual([false, 's-retire', 'p-retire']);
    expect(await db.data.pools.retire('p-retire')).toBe(false);
  });

  it('leaves unclaimed members out of the idle query (the reaper never expires them as idle)', async () => {
    await member('p-idle', 'zeta');
    const idle = await db.data.work.findIdle(new Date(clock.getTime() + 60_000));
    expect(idle.map((l) => l.id)).not.toContain('p-idle');
    expect(idle.map((l) => l.id)).toContain('p-ready');
  });
});
