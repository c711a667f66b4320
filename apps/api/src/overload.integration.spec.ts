import { createRequire } from 'node:module';
import { testDatabaseUrl } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../test/api-fixture.js';
import { rawRequest, type RawAnswer } from '../test/raw-http.js';

interface Connection {
  exec(sql: string): void;
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => Connection;

const CAP = 4;
const LEARNERS = 40;
/** Two learners to a loopback address: within every per-client limit as shipped. */
const addressOf = (i: number) => `127.61.0.${Math.floor(i / 2) + 1}`;

/**
 * A crowd past the api's in-flight cap while another app (the scheduler under `npm start`) holds SQLite's
 * write lock: the requests in flight wait for the lock with the event loop free, so every request past the
 * cap is answered at once — 503 with Retry-After — and none is left unanswered or reset. Real sockets from
 * many loopback addresses, the real api on a SQLite file, every other limit as shipped.
 */
describe('api under a burst past its in-flight cap, the database locked by another writer', () => {
  let api: ApiFixture;
  let holder: Connection;
  let cleanup = (): void => undefined;
  beforeAll(async () => {
    const database = await testDatabaseUrl('sqlite');
    cleanup = database.cleanup;
    api = await startApi({ databaseUrl: database.url }, { api: { maxInFlightRequests: CAP } });
    holder = new Database(database.url.slice('sqlite:'.length));
  });
  afterAll(async () => {
    holder?.close();
    await api?.stop();
    cleanup();
  });

  it('answers every request past the cap 503 with Retry-After while the lock is held, then serves the rest: none unanswered', async () => {
    for (let i = 0; i < LEARNERS; i++) await api.data.liveSessions.create({ id: `crowd-${i}`, sourceIp: addressOf(i) });
    holder.exec('BEGIN IMMEDIATE');
    const answers: (RawAnswer | Error)[] = [];
    const sent = Array.from({ length: LEARNERS }, (_, i) =>
      rawRequest(api.url, {
        method: 'POST',
        path: '/exp/livelesson',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: `crowd-${i}`, lessonSlug: 'linux-basics', lessonStage: 0 }),
        localAddress: addressOf(i),
      }).then(
        (answer) => void answers.push(answer),
        (error: Error) => void answers.push(error),
      ),
    );
    // Past the cap, answered while the requests in flight still wait for the lock.
    await expect.poll(() => answers.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(LEARNERS - CAP);
    expect(answers.filter((answer) => answer instanceof Error)).toEqual([]);
    for (const answer of answers as RawAnswer[]) {
      expect(answer.status).toBe(503);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    holder.exec('COMMIT');
    await Promise.all(sent);
    expect(answers).toHaveLength(LEARNERS);
    expect(answers.filter((answer) => answer instanceof Error)).toEqual([]);
    const statuses = (answers as RawAnswer[]).map((answer) => (answer.status === 503 && answer.headers['retry-after'] ? '503+Retry-After' : answer.status));
    expect(statuses.filter((status) => status !== 200 && status !== '503+Retry-After')).toEqual([]);
    expect(statuses.filter((status) => status === '503+Retry-After').length).toBeGreaterThanOrEqual(LEARNERS - CAP);
    // A refused learner asks again and is served.
    const again = await api.call('POST', '/exp/livelesson', { sessionId: 'crowd-0', lessonSlug: 'linux-basics', lessonStage: 0 });
    expect(again.status).toBe(200);
  });
});
