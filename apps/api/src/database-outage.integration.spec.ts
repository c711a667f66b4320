import { startPostgres, type PostgresProcess } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../test/api-fixture.js';

/**
 * The api on a PostgreSQL of this file's own, stopped and restarted under it: a learner never gets a 500
 * for it. Within `database.connectRetrySeconds` a request waits for the server and is answered; past it,
 * 503 with Retry-After. Readiness says the database is down while it is.
 */
describe('the api while its PostgreSQL restarts', () => {
  let postgres: PostgresProcess;
  /** Gives up on the database after 1 s: answers 503 while it is down. */
  let impatient: ApiFixture;
  /** Waits for the database as long as a test needs: a restart is invisible to its learners. */
  let patient: ApiFixture;
  let lessonId = '';

  beforeAll(async () => {
    postgres = await startPostgres();
    const databaseUrl = await postgres.createDatabase('outage');
    const options = (connectRetrySeconds: number) => ({ api: { rateLimitPerMinute: 0 }, database: { url: databaseUrl, connectRetrySeconds } });
    impatient = await startApi({ databaseUrl }, options(1));
    patient = await startApi({ databaseUrl }, options(600));
    const sessionId = ((await impatient.call('POST', '/exp/livesession', {})).body as { ID: string }).ID;
    lessonId = ((await impatient.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId, lessonStage: 0 })).body as { id: string }).id;
  });
  afterAll(async () => {
    await impatient?.stop();
    await patient?.stop();
    await postgres?.stop();
  });

  it('answers 503 with Retry-After (never 500) while the database is down, reports it not ready, and 200 again once it is back', async () => {
    await postgres.restart(async () => {
      for (const [method, path, body] of [
        ['GET', `/exp/livelesson/${lessonId}`],
        ['POST', '/exp/livesession', {}],
        ['GET', `/exp/livelesson/${lessonId}/events`],
      ] as const) {
        const answer = await impatient.call(method, path, body);
        expect({ path, status: answer.status, retryAfter: answer.headers.get('retry-after') }).toEqual({ path, status: 503, retryAfter: '2' });
        expect(answer.body).toMatchObject({ code: 14, message: expect.stringMatching(/database is not available/) });
      }
      const ready = await impatient.call('GET', '/readyz');
      expect(ready).toMatchObject({ status: 503, body: { checks: { database: false } } });
    }, 'immediate');
    await expect.poll(async () => (await impatient.call('GET', '/readyz')).status).toBe(200);
    expect((await impatient.call('GET', `/exp/livelesson/${lessonId}`)).status).toBe(200);
  });

  it('holds a request that arrives during a restart until the database is back, and answers it', async () => {
    let answer: Promise<{ status: number }> | undefined;
    await postgres.restart(async () => {
      answer = patient.call('GET', `/exp/livelesson/${lessonId}`);
      // Not answered (nor failed) while the server is away: it waits.
      expect(await Promise.race([answer.then(() => 'answered'), new Promise((resolve) => setTimeout(resolve, 500, 'waiting'))])).toBe('waiting');
    }, 'immediate');
    expect((await answer!).status).toBe(200);
  });
});
