import { makeNewLiveLesson, testDatabase, type TestDatabase } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataSource } from './data-source.factory.js';
import { DataManager } from './data-manager.js';

/**
 * The four apps as processes share one SQLite file in `npm start`. A deferred transaction that reads and
 * then writes, while another connection has written since its read, gets SQLITE_BUSY at once (waiting
 * cannot help, so the busy timeout does not apply): such a transaction must be run again, not fail.
 */
describe('transactions on one SQLite file from two connections', () => {
  let db: TestDatabase;
  let other: DataManager;
  beforeAll(async () => {
    db = await testDatabase('sqlite');
    other = new DataManager(createDataSource({ url: db.url, poolSize: 1, migrateOnStart: false }));
    await other.dataSource.initialize();
  });
  afterAll(async () => {
    await other?.close();
    await db?.close();
  });

  it('retries a read-then-write transaction that lost the race for the write lock', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `race-${i}`);
    for (const id of ids) await db.data.liveLessons.create(makeNewLiveLesson({ id, sessionId: `s-${id}`, lessonSlug: 'race' }));
    const writers = [db.data, other];
    await Promise.all(
      ids.flatMap((id) =>
        writers.map(async (data, w) => {
          for (let round = 0; round < 5; round++) {
            await data.liveLessons.updateStatus(id, round % 2 ? 'CONFIGURATION' : 'BOOTING');
            if (w === 1 && round === 4) await data.liveLessons.markFailed(id, `reason of ${id}`);
          }
        }),
      ),
    );
    const lessons = await Promise.all(ids.map((id) => db.data.liveLessons.get(id)));
    expect(lessons.map((lesson) => [lesson.status, lesson.failureReason])).toEqual(ids.map((id) => ['BOOTING', `reason of ${id}`]));
  });
});
