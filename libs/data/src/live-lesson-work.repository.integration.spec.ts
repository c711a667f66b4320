import { DATABASE_KINDS, makeNewLiveLesson, testDatabase, type TestDatabase } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.each(DATABASE_KINDS)('claims, re-drive and expiry queries on %s', (kind) => {
  let db: TestDatabase;
  let clock = new Date('2026-01-01T00:00:00Z');
  const later = (seconds: number): Date => new Date(clock.getTime() + seconds * 1000);
  beforeAll(async () => {
    db = await testDatabase(kind, () => clock);
  });
  afterAll(() => db?.close());

  it('lets exactly one of two racing owners claim a live lesson, and a stale claim be taken over', async () => {
    await db.data.liveLessons.create(makeNewLiveLesson({ id: 'claimed', sessionId: 'c' }));
    const wins = await Promise.all([db.data.work.claim('claimed', 'a', 30_000), db.data.work.claim('claimed', 'b', 30_000)]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    const owner = wins[0] ? 'a' : 'b';
    const other = owner === 'a' ? 'b' : 'a';
    expect(await db.data.work.claim('claimed', owner, 30_000)).toBe(true);
    expect([...(await db.data.work.renewAll(other, ['claimed'], 30_000)).keys()]).toEqual([]);
    clock = later(31);
    expect(await db.data.work.claim('claimed', other, 30_000)).toBe(true);
    expect([...(await db.data.work.renewAll(owner, ['claimed'], 30_000)).keys()]).toEqual([]);
    await db.data.work.release('claimed', owner);
    expect((await db.data.liveLessons.get('claimed')).claimedBy).toBe(other);
    await db.data.work.release('claimed', other);
    expect((await db.data.liveLessons.get('claimed')).claimedBy).toBeUndefined();
  });

  it("answers a claim with the row's state, its deletion request and its ticket; READY releases the claim with it", async () => {
    const lessons = db.data.liveLessons;
    await lessons.create(makeNewLiveLesson({ id: 'looked', sessionId: 'l1' }));
    const read = await lessons.get('looked');
    expect(await db.data.work.claimAndLook('looked', 'a', 30_000)).toEqual({
      updatedAt: read.updatedAt,
      sessionId: 'l1',
      status: 'INITIALIZED',
      error: false,
      currentStage: 0,
      ticket: 'none',
    });
    expect(await db.data.work.claimAndLook('looked', 'b', 30_000)).toBeUndefined();
    const request = { liveLessonId: 'looked', sessionId: 'l1', client: '127.0.0.1', lessonSlug: 'network-automation' };
    await db.data.admission.enqueue(request, { cap: 0, maxQueued: 10 });
    await lessons.requestDeletion('looked');
    expect(await db.data.work.claimAndLook('looked', 'a', 30_000)).toMatchObject({ deleteRequestedAt: clock, ticket: 'admitted' });
    // Another replica's READY never releases a's claim; a's own does.
    await lessons.updateStatus('looked', 'READY', { configuredStage: 0, releasedBy: 'b' });
    expect((await lessons.get('looked')).claimedBy).toBe('a');
    const written = await lessons.updateStatus('looked', 'READY', { configuredStage: 0, releasedBy: 'a' });
    expect(written.status).toBe('READY');
    expect((await lessons.get('looked')).claimedBy).toBeUndefined();
  });

  it('finds what needs the scheduler: unstarted, interrupted or deletion-requested, unclaimed and quiet', async () => {
    const lessons = db.data.liveLessons;
    await lessons.create(makeNewLiveLesson({ id: 'fresh', sessionId: 'w1' }));
    await lessons.create(makeNewLiveLesson({ id: 'booting', sessionId: 'w2' }));
    await lessons.updateStatus('booting', 'BOOTING');
    await lessons.create(makeNewLiveLesson({ id: 'ready', sessionId: 'w3' }));
    await lessons.updateStatus('ready', 'READY');
    await lessons.create(makeNewLiveLesson({ id: 'gone', sessionId: 'w4' }));
    await lessons.updateStatus('gone', 'READY');
    await lessons.requestDeletion('gone');
    await lessons.create(makeNewLiveLesson({ id: 'failed', sessionId: 'w5' }));
    await lessons.markFailed('failed', 'x');
    await lessons.create(makeNewLiveLesson({ id: 'busy', sessionId: 'w6' }));
    await db.data.work.claim('busy', 'someone', 60_000);
    clock = later(10);
    const mine = new Set(['fresh', 'booting', 'ready', 'gone', 'failed', 'busy']);
    const ids = async (unclaimedBefore?: Date, owner = 'me'): Promise<string[]> =>
      (await db.data.work.findNeedingWork({ owner, unclaimedBefore, limit: 100 }))
        .map((lesson) => lesson.id)
        .filter((id) => mine.has(id))
        .sort();
    expect(await ids(later(-20))).toEqual([]);
    expect(await ids(later(1))).toEqual(['booting', 'fresh', 'gone']);
    // Held by a live replica: nobody else's to take, but its own after a restart of that replica.
    expect(await ids(undefined, 'someone')).toEqual(['busy']);
    clock = later(61);
    // Its lease lapsed (the holder died): anyone's at once, however recently the row changed.
    expect(await ids(undefined)).toEqual(['busy']);
  });

  it('renews every claim of an owner in one heartbeat, reports deletions requested, and hands work back unfinished', async () => {
    const lessons = db.data.liveLessons;
    for (const id of ['held-1', 'held-2', 'held-3']) await lessons.create(makeNewLiveLesson({ id, sessionId: id }));
    for (const id of ['held-1', 'held-2']) expect(await db.data.work.claim(id, 'me', 6000)).toBe(true);
    expect(await db.data.work.claim('held-3', 'other', 6000)).toBe(true);
    await lessons.requestDeletion('held-2');
    const kept = await db.data.work.renewAll('me', ['held-1', 'held-2', 'held-3', 'no-such-row'], 6000);
    expect(Object.fromEntries(kept)).toEqual({ 'held-1': { deleteRequested: false }, 'held-2': { deleteRequested: true } });
    expect((await lessons.get('held-1')).claimedUntil?.getTime()).toBe(clock.getTime() + 6000);
    expect(await db.data.work.claim('held-1', 'other', 6000)).toBe(false);
    await db.data.work.handBack('held-1', 'me');
    expect((await lessons.get('held-1')).claimedBy).toBe('me');
    expect((await db.data.work.findNeedingWork({ owner: 'other', limit: 100 })).map((lesson) => lesson.id)).toContain('held-1');
    expect(await db.data.work.claim('held-1', 'other', 6000)).toBe(true);
  });

  it('finds idle live lessons except in persistent sessions, and failed ones past their TTL', async () => {
    clock = new Date('2026-02-01T00:00:00Z');
    await db.data.liveSessions.create({ id: 'plain', sourceIp: '1.1.1.1' });
    await db.data.liveSessions.create({ id: 'forever', sourceIp: '1.1.1.1', persistent: true });
    await db.data.liveLessons.create(makeNewLiveLesson({ id: 'idle-plain', sessionId: 'plain' }));
    await db.data.liveLessons.create(makeNewLiveLesson({ id: 'idle-forever', sessionId: 'forever' }));
    await db.data.liveLessons.create(makeNewLiveLesson({ id: 'idle-orphan', sessionId: 'no-such-session' }));
    await db.data.liveLessons.create(makeNewLiveLesson({ id: 'idle-failed', sessionId: 'plain', lessonSlug: 'other' }));
    await db.data.liveLessons.markFailed('idle-failed', 'broken');
    clock = new Date('2026-02-01T01:00:00Z');
    const idle = (await db.data.work.findIdle(new Date('2026-02-01T00:30:00Z'))).map((lesson) => lesson.id);
    expect(idle).toEqual(expect.arrayContaining(['idle-plain', 'idle-orphan']));
    expect(idle).not.toContain('idle-forever');
    expect(idle).not.toContain('idle-failed');
    expect((await db.data.work.findFailed(new Date('2026-01-31T23:59:59Z'))).map((l) => l.id)).not.toContain('idle-failed');
    expect((await db.data.work.findFailed(new Date('2026-02-01T02:00:00Z'))).map((l) => l.id)).toContain('idle-failed');
  });

  it('finds the lessons that should have a namespace by now: started, not failed, no deletion asked, unclaimed, untouched for the grace', async () => {
    clock = new Date('2026-03-01T00:00:00Z');
    const lessons = db.data.liveLessons;
    for (const id of ['ns-ready', 'ns-fresh', 'ns-failed', 'ns-deleting', 'ns-claimed', 'ns-recent']) {
      await lessons.create(makeNewLiveLesson({ id, sessionId: id }));
      if (id !== 'ns-fresh') await lessons.updateStatus(id, 'BOOTING');
    }
    await lessons.markFailed('ns-failed', 'broken');
    await lessons.requestDeletion('ns-deleting');
    await db.data.work.claim('ns-claimed', 'a', 600_000);
    clock = later(120);
    await lessons.updateStatus('ns-recent', 'READY');
    const expecting = await db.data.work.expectingNamespace(later(-60));
    const ids = expecting.map((lesson) => lesson.id).filter((id) => id.startsWith('ns-'));
    expect(ids.sort()).toEqual(['ns-ready']);
    expect(expecting.find((lesson) => lesson.id === 'ns-ready')?.status).toBe('BOOTING');
    clock = later(600);
    const later2 = (await db.data.work.expectingNamespace(later(-60))).map((lesson) => lesson.id).filter((id) => id.startsWith('ns-'));
    expect(later2.sort()).toEqual(['ns-claimed', 'ns-ready', 'ns-recent']);
  });
});
