import { DataErrorCodes } from '@antidote/contracts';
import { DATABASE_KINDS, makeNewLiveLesson, testDatabase, type TestDatabase } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from './index.js';

describe.each(DATABASE_KINDS)('live sessions on %s', (kind) => {
  let db: TestDatabase;
  let clock = new Date('2026-01-01T00:00:00Z');
  beforeAll(async () => {
    db = await testDatabase(kind, () => clock);
  });
  afterAll(() => db?.close());

  it('creates, lists, reads, deletes (reference §8.2 #11) and updates persistence (#18)', async () => {
    const sessions = db.data.liveSessions;
    await sessions.create({ id: 'abcdef', sourceIp: '1.1.1.1' });
    await sessions.create({ id: 'ghijkl', sourceIp: '2.2.2.2' });
    await sessions.create({ id: 'mnopqr', sourceIp: '3.3.3.3' });
    await expect(sessions.create({ id: 'abcdef', sourceIp: '9.9.9.9' })).rejects.toMatchObject({
      code: DataErrorCodes.idTaken,
      message: 'LiveSession abcdef already exists',
    });
    expect(await sessions.list()).toHaveLength(3);
    expect((await sessions.get('abcdef')).persistent).toBe(false);
    await expect(sessions.get('foobar')).rejects.toThrow(new NotFoundError('Unable to find liveSession foobar'));
    await sessions.delete('ghijkl');
    await sessions.delete('ghijkl');
    expect((await sessions.list()).map((s) => [s.id, s.sourceIp])).toEqual([
      ['abcdef', '1.1.1.1'],
      ['mnopqr', '3.3.3.3'],
    ]);
    await sessions.updatePersistence('abcdef', true);
    expect((await sessions.get('abcdef')).persistent).toBe(true);
    await expect(sessions.updatePersistence('nope', true)).rejects.toThrow("LiveSession nope doesn't exist; cannot update");
    expect(await sessions.countForIp('3.3.3.3')).toBe(1);
  });

  it('deletes an idle session only while it has no live lessons, in one guarded statement', async () => {
    const sessions = db.data.liveSessions;
    await sessions.create({ id: 'idle1', sourceIp: '4.4.4.4' });
    await sessions.create({ id: 'idle2', sourceIp: '4.4.4.4' });
    await sessions.create({ id: 'kept', sourceIp: '4.4.4.4', persistent: true });
    clock = new Date('2026-01-02T00:00:00Z');
    const cutoff = new Date('2026-01-01T12:00:00Z');
    expect((await sessions.findIdle(cutoff)).map((s) => s.id)).toEqual(expect.arrayContaining(['idle1', 'idle2']));
    expect((await sessions.findIdle(cutoff)).map((s) => s.id)).not.toContain('kept');
    // A live lesson appears between the reaper's look and its delete: the session must survive.
    await db.data.liveLessons.create(makeNewLiveLesson({ id: 'late-lesson', sessionId: 'idle2' }));
    expect(await sessions.deleteIfIdle('idle1', cutoff)).toBe(true);
    expect(await sessions.deleteIfIdle('idle2', cutoff)).toBe(false);
    expect(await sessions.deleteIfIdle('kept', cutoff)).toBe(false);
    await sessions.touch('idle2');
    await db.data.liveLessons.delete('late-lesson');
    expect(await sessions.deleteIfIdle('idle2', cutoff)).toBe(false);
    expect(await sessions.find('idle2')).toBeDefined();
  });
});
