import { request, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../test/api-fixture.js';
import { openStream, readEvents } from '../test/sse.js';

const FRONT_END = 'https://labs.example.org';

/** A POST whose body never finishes until `finish()`: it stays in flight on the api. */
function heldRequest(url: string): { request: ClientRequest; answered: Promise<number>; finish(): void } {
  let answer: (status: number) => void = () => undefined;
  const answered = new Promise<number>((resolve) => (answer = resolve));
  const outgoing = request(`${url}/exp/livesession`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (response) => {
    response.resume();
    answer(response.statusCode ?? 0);
  });
  outgoing.write('{');
  return { request: outgoing, answered, finish: () => outgoing.end('}') };
}

describe('api security edges: limits by default, in-flight and stream caps, CORS origins, forged events', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    // Limits as shipped (liveSessionLimit, liveLessonLimit, scheduler.maxLiveLessons are not set here).
    api = await startApi('sqlite', { api: { rateLimitPerMinute: 0, corsOrigins: [FRONT_END], maxInFlightRequests: 2, maxStreamsPerClient: 2 } });
  });
  afterAll(() => api?.stop());

  const newSession = async (headers: Record<string, string> = {}): Promise<string> => ((await api.call('POST', '/exp/livesession', {}, headers)).body as { ID: string }).ID;
  const newLesson = async (slug = 'linux-basics'): Promise<string> =>
    ((await api.call('POST', '/exp/livelesson', { lessonSlug: slug, sessionId: await newSession(), lessonStage: 0 })).body as { id: string }).id;

  it('limits sessions per address and live lessons per session out of the box', async () => {
    const learner = { 'x-forwarded-for': '198.51.100.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await api.call('POST', '/exp/livesession', {}, learner)).status);
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    const sessionId = await newSession({ 'x-forwarded-for': '198.51.100.78' });
    const answers = [];
    for (const slug of ['linux-basics', 'web-services', 'network-automation', 'jupyter-intro']) answers.push((await api.call('POST', '/exp/livelesson', { lessonSlug: slug, sessionId, lessonStage: 0 })).status);
    expect(answers).toEqual([200, 200, 200, 429]);
  });

  it('answers 503 past the global in-flight cap at once, and serves again once requests finish', async () => {
    const held = [heldRequest(api.url), heldRequest(api.url)];
    await expect.poll(async () => (await api.call('GET', '/exp/lesson')).status, { interval: 50 }).toBe(503);
    const busy = await api.call('GET', '/exp/curriculum');
    expect(busy).toMatchObject({ status: 503, body: { code: 14 } });
    expect(busy.headers.get('retry-after')).toBe('1');
    expect((await api.call('GET', '/healthz')).status).toBe(200);
    for (const request of held) request.finish();
    expect(await Promise.all(held.map((request) => request.answered))).toEqual([200, 200]);
    await expect.poll(async () => (await api.call('GET', '/exp/lesson')).status, { interval: 50 }).toBe(200);
  });

  it('caps open event streams per client address, and frees the slot when a stream closes', async () => {
    const id = await newLesson();
    const url = `${api.url}/exp/livelesson/${id}/events`;
    const streams = [await openStream(url), await openStream(url)];
    for (const stream of streams) expect(await stream.first).toMatchObject({ event: 'status', data: { status: 'INITIALIZED' } });
    const third = await openStream(url);
    expect(third.status).toBe(429);
    const otherClient = await openStream(url, { 'x-forwarded-for': '198.51.100.90' });
    expect(otherClient.status).toBe(200);
    otherClient.close();
    streams[0].close();
    let again: Awaited<ReturnType<typeof openStream>> | undefined;
    await expect
      .poll(async () => {
        again = await openStream(url);
        if (again.status !== 200) again.close();
        return again.status;
      }, { interval: 100 })
      .toBe(200);
    again?.close();
    streams[1].close();
  });

  it('forwards to a stream only status events its row confirms, with the row\'s state and never the message\'s text', async () => {
    const id = await newLesson('web-services');
    const steps: (() => Promise<void>)[] = [
      async () => {
        api.publishStatus({ liveLessonId: id, status: 'BOOTING', error: true, failureReason: 'forged: your lab is broken, visit evil.example' });
        api.publishStatus({ liveLessonId: id, status: 'INITIALIZED', deleted: true });
        api.publishStatus({ liveLessonId: id, status: 'READY' });
        await api.data.liveLessons.updateStatus(id, 'BOOTING');
        api.publishStatus({ liveLessonId: id, status: 'BOOTING' });
      },
      async () => {
        await api.data.liveLessons.updateStatus(id, 'READY');
        api.publishStatus({ liveLessonId: id, status: 'READY', failureReason: 'forged text on a true status' });
      },
    ];
    const events = await readEvents(`${api.url}/exp/livelesson/${id}/events`, () => undefined, () => void steps.shift()?.(), { 'x-forwarded-for': '198.51.100.91' });
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ status: 'INITIALIZED', error: false }),
      expect.objectContaining({ status: 'BOOTING', error: false }),
      expect.objectContaining({ status: 'READY', error: false }),
    ]);
    expect(JSON.stringify(events)).not.toContain('forged');
    // Nor the owning session: whoever holds a lab link must not learn it.
    expect(events.filter((event) => 'sessionId' in event.data)).toEqual([]);
  });

  it('allows only api.corsOrigins: their answers carry the origin, other origins cannot write', async () => {
    const allowed = await api.call('GET', '/exp/lesson', undefined, { origin: FRONT_END });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(FRONT_END);
    expect(allowed.headers.get('vary')).toMatch(/origin/i);
    const preflight = await api.call('OPTIONS', '/exp/livelesson', undefined, { origin: FRONT_END, 'access-control-request-method': 'POST' });
    expect(preflight.status).toBe(204);
    const evil = { origin: 'https://evil.example', 'content-type': 'text/plain' };
    expect((await api.call('OPTIONS', '/exp/livelesson', undefined, { ...evil, 'access-control-request-method': 'POST' })).status).toBe(403);
    const sessions = (await api.data.liveSessions.list()).length;
    expect(await api.call('POST', '/exp/livesession', '{}', evil)).toMatchObject({ status: 403, body: { code: 7 } });
    expect(await api.data.liveSessions.list()).toHaveLength(sessions);
    const read = await api.call('GET', '/exp/lesson', undefined, evil);
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });
});
