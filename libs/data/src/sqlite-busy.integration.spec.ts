import { createRequire } from 'node:module';
import { makeNewLiveLesson, testDatabase, type TestDatabase } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Connection {
  exec(sql: string): void;
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => Connection;

/**
 * Another connection (another app under `npm start`) holding SQLite's write lock: a statement that needs
 * it waits with the event loop free — timers run, other requests are answered — and goes through once the
 * lock is released. better-sqlite3 is synchronous, so a wait inside SQLite (a busy timeout) would stop
 * the whole process instead.
 */
describe('SQLite lock waits off the event loop', () => {
  let db: TestDatabase;
  let holder: Connection;
  beforeAll(async () => {
    db = await testDatabase('sqlite');
    holder = new Database(db.url.slice('sqlite:'.length));
  });
  afterAll(async () => {
    holder?.close();
    await db?.close();
  });

  it("waits for another connection's write lock without stopping the event loop, then writes", async () => {
    holder.exec('BEGIN IMMEDIATE');
    let settled = false;
    const write = db.data.liveSessions.create({ id: 'waiting-session', sourceIp: '127.0.0.1' }).finally(() => (settled = true));
    // Timers fire while the write waits (a wait inside SQLite would hold them until it gave up).
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 1));
    const read = await db.data.liveSessions.find('another-session');
    expect({ settled, read }).toEqual({ settled: false, read: undefined });
    holder.exec('COMMIT');
    await write;
    expect(await db.data.liveSessions.find('waiting-session')).toMatchObject({ id: 'waiting-session' });
  });

  it('runs a transaction again once the lock is free', async () => {
    holder.exec('BEGIN IMMEDIATE');
    let settled = false;
    // A live lesson and its endpoints: one transaction.
    const created = db.data.liveLessons
      .create(makeNewLiveLesson({ id: 'in-transaction', sessionId: 's-in-transaction', lessonSlug: 'busy' }))
      .finally(() => (settled = true));
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(settled).toBe(false);
    holder.exec('COMMIT');
    await created;
    expect(await db.data.liveLessons.find('in-transaction')).toMatchObject({ id: 'in-transaction' });
  });
});
