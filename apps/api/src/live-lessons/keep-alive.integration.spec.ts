import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../../test/api-fixture.js';
import { readEvents, type SseEvent } from '../../test/sse.js';

/**
 * What the learner's page relies on to tell the truth about its lab: a keep-alive that renews only a lab
 * that exists (never creating one, never moving its stage), and an event stream followed for the lab's
 * whole life (`?follow=true`), not only until READY.
 */
describe('keep-alive of an existing lab, and its events followed past READY', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi('sqlite', { api: { rateLimitPerMinute: 0 } });
  });
  afterAll(() => api?.stop());

  const newSession = async (): Promise<string> => ((await api.call('POST', '/exp/livesession', {})).body as { ID: string }).ID;
  const newLab = async (sessionId: string, lessonSlug = 'linux-basics'): Promise<string> =>
    ((await api.call('POST', '/exp/livelesson', { lessonSlug, sessionId, lessonStage: 0 })).body as { id: string }).id;
  const keepAlive = (id: string, sessionId: string) => api.call('POST', `/exp/livelesson/${id}/keepalive`, { sessionId });

  it('renews the lab of its own session and answers its state, stage unchanged', async () => {
    const sessionId = await newSession();
    const id = await newLab(sessionId);
    await api.data.liveLessons.updateStatus(id, 'READY');
    const before = (await api.data.liveLessons.get(id)).lastActiveAt;
    await expect
      .poll(async () => {
        const answer = await keepAlive(id, sessionId);
        expect(answer).toMatchObject({ status: 200, body: { liveLessonId: id, status: 'READY', error: false, stage: 0 } });
        return (await api.data.liveLessons.get(id)).lastActiveAt.getTime();
      })
      .toBeGreaterThan(before.getTime());
    expect(JSON.stringify((await keepAlive(id, sessionId)).body)).not.toContain(sessionId);
  });

  it("never creates a lab: a gone lab, another session's and an unknown one are all 404, and nothing new appears", async () => {
    const sessionId = await newSession();
    const id = await newLab(sessionId, 'web-services');
    const created = (api.received['antidote.livelesson.create.v1'] ?? []).length;
    const labs = (await api.data.liveLessons.idsForSession(sessionId)).length;
    expect(await keepAlive(id, await newSession())).toMatchObject({ status: 404, body: { message: 'livelesson not found' } });
    expect((await keepAlive('nosuchlab1', sessionId)).status).toBe(404);
    expect((await api.call('DELETE', `/exp/livelesson/${id}?sessionId=${sessionId}`)).status).toBe(200);
    expect((await keepAlive(id, sessionId)).status).toBe(404);
    await api.data.liveLessons.delete(id);
    expect((await keepAlive(id, sessionId)).status).toBe(404);
    expect((api.received['antidote.livelesson.create.v1'] ?? []).length).toBe(created);
    expect((await api.data.liveLessons.idsForSession(sessionId)).length).toBe(labs - 1);
    expect((await api.call('POST', `/exp/livelesson/${id}/keepalive`, {})).status).toBe(400);
  });

  it('follows a lab past READY — a stage change, then its deletion — with ?follow=true; without it the stream ends at READY', async () => {
    const sessionId = await newSession();
    const id = await newLab(sessionId);
    const steps: (() => Promise<void>)[] = [
      async () => {
        await api.data.liveLessons.updateStatus(id, 'READY');
        api.publishStatus({ liveLessonId: id, status: 'READY' });
      },
      async () => {
        expect((await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId, lessonStage: 1 })).status).toBe(200);
        api.publishStatus({ liveLessonId: id, status: 'CONFIGURATION', stage: 1 });
      },
      async () => {
        await api.data.liveLessons.updateStatus(id, 'READY');
        api.publishStatus({ liveLessonId: id, status: 'READY', stage: 1 });
      },
      async () => {
        await api.data.liveLessons.delete(id);
        api.publishStatus({ liveLessonId: id, status: 'READY', stage: 1, deleted: true });
      },
    ];
    const events: SseEvent[] = await readEvents(
      `${api.url}/exp/livelesson/${id}/events?follow=true`,
      () => undefined,
      () => void steps.shift()?.(),
      { 'x-forwarded-for': '198.51.100.40' },
    );
    expect(
      events.map(({ event, data }) => `${event} ${data.status} ${(data as { stage?: number }).stage} ${(data as { deleted?: boolean }).deleted ?? false}`),
    ).toEqual(['status INITIALIZED 0 false', 'status READY 0 false', 'status CONFIGURATION 1 false', 'status READY 1 false', 'status READY 1 true']);

    const other = await newLab(sessionId, 'web-services');
    await api.data.liveLessons.updateStatus(other, 'READY');
    expect(
      (await readEvents(`${api.url}/exp/livelesson/${other}/events`, () => undefined, undefined, { 'x-forwarded-for': '198.51.100.41' })).map(
        (event) => event.data.status,
      ),
    ).toEqual(['READY']);
    expect((await api.call('GET', `/exp/livelesson/${other}/events?follow=yes`)).status).toBe(400);
  });
});
