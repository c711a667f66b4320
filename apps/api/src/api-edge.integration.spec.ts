import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../test/api-fixture.js';
import { readEvents } from '../test/sse.js';

describe('api edges: SSE, admin, limits, client address, rate limit', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi('sqlite', { liveSessionLimit: 3, liveLessonLimit: 2, api: { trustedProxies: ['10.0.0.0/8'], rateLimitPerMinute: 0 } });
  });
  afterAll(() => api?.stop());

  const session = async (): Promise<string> => ((await api.call('POST', '/exp/livesession', {})).body as { ID: string }).ID;

  it('streams the current state and every status change the row confirms until READY, then closes', async () => {
    const sessionId = await session();
    const { id } = (await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId, lessonStage: 0 })).body as { id: string };
    // As the scheduler does it: the row first, then the event; each step once the previous one arrived.
    const next: Record<string, 'BOOTING' | 'CONFIGURATION' | 'READY'> = { INITIALIZED: 'BOOTING', BOOTING: 'CONFIGURATION', CONFIGURATION: 'READY' };
    const events = await readEvents(`${api.url}/exp/livelesson/${id}/events`, () => undefined, (event) => {
      const status = next[event.data.status ?? ""];
      if (!status) return;
      api.publishStatus({ liveLessonId: 'someone-else', status: 'READY' });
      void api.data.liveLessons.updateStatus(id, status).then(() => api.publishStatus({ liveLessonId: id, status }));
    });
    expect(events.map((e) => `${e.event}:${e.data.status}`)).toEqual(['status:INITIALIZED', 'status:BOOTING', 'status:CONFIGURATION', 'status:READY']);
    expect((await api.call('GET', '/exp/livelesson/nosuchlesson/events')).status).toBe(404);
  });

  it('guards admin routes with the bearer token', async () => {
    expect((await api.call('GET', '/exp/admin/livelessons')).status).toBe(401);
    expect((await api.call('GET', '/exp/admin/livelessons', undefined, { authorization: 'Bearer wrong' })).status).toBe(403);
    const auth = { authorization: 'Bearer secret-admin-token' };
    const all = await api.call('GET', '/exp/admin/livelessons', undefined, auth);
    expect(all.status).toBe(200);
    const sessionId = await session();
    expect(await api.call('PUT', `/exp/admin/livesession/${sessionId}/persistence`, { persistent: true }, auth)).toMatchObject({ status: 200, body: { ID: sessionId, Persistent: true } });
    expect((await api.call('PUT', `/exp/admin/livesession/${sessionId}/persistence`, { persistent: 'yes' }, auth)).status).toBe(400);
    const { id } = (await api.call('POST', '/exp/livelesson', { lessonSlug: 'web-services', sessionId, lessonStage: 0 })).body as { id: string };
    expect(await api.call('DELETE', `/exp/admin/livesession/${sessionId}`, undefined, auth)).toMatchObject({ status: 200, body: { liveLessons: [id] } });
    expect(await api.data.liveSessions.find(sessionId)).toBeUndefined();
  });

  it('limits sessions per address and live lessons per session with the original texts', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    // The peer (127.0.0.1) is not a trusted proxy here, so the header is ignored: the limit counts 127.0.0.1.
    const created = await api.call('POST', '/exp/livesession', {}, headers);
    expect((created.body as { SourceIP: string }).SourceIP).toBe('127.0.0.1');
    let last = created;
    for (let i = 0; i < 3; i++) last = await api.call('POST', '/exp/livesession', {});
    expect(last).toMatchObject({ status: 429, body: { code: 8, message: 'This IP address has exceeded the maximum number of liveSessions' } });
    await api.data.liveSessions.create({ id: 'limitsession', sourceIp: '198.51.100.1' });
    for (const slug of ['linux-basics', 'web-services']) expect((await api.call('POST', '/exp/livelesson', { lessonSlug: slug, sessionId: 'limitsession', lessonStage: 0 })).status).toBe(200);
    expect((await api.call('POST', '/exp/livelesson', { lessonSlug: 'jupyter-intro', sessionId: 'limitsession', lessonStage: 0 })).body).toMatchObject({
      code: 8,
      message: 'This session address has exceeded the maximum number of liveLessons',
    });
  });

  it('lets a learner retry a failed lesson whose namespace was cleaned up', async () => {
    await api.data.liveSessions.create({ id: 'retrysession', sourceIp: '198.51.100.2' });
    const first = ((await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId: 'retrysession', lessonStage: 0 })).body as { id: string }).id;
    await api.data.liveLessons.markFailed(first, 'pods failed: ErrImagePull');
    expect((await api.call('GET', `/exp/livelesson/${first}`)).body).toMatchObject({ code: 9, message: expect.stringContaining('pods failed: ErrImagePull') });
    const second = ((await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId: 'retrysession', lessonStage: 0 })).body as { id: string }).id;
    expect(second).not.toBe(first);
    expect(await api.data.liveLessons.find(first)).toBeUndefined();
  });
});

describe('api: trusted proxies, hidden passwords, rate limits', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi('sqlite', { api: { trustedProxies: ['127.0.0.1/32'], exposeDevicePasswords: false, rateLimitPerMinute: 20 } });
  });
  afterAll(() => api?.stop());

  it('believes x-forwarded-for from a trusted proxy and hides device passwords when configured', async () => {
    // Walked from the right: the proxy (127.0.0.1) saw 203.0.113.7; what the client wrote left of it is not believed.
    const session = await api.call('POST', '/exp/livesession', {}, { 'x-forwarded-for': '10.0.0.1, 203.0.113.7' });
    expect(session.body).toMatchObject({ SourceIP: '203.0.113.7' });
    const bogus = await api.call('POST', '/exp/livesession', {}, { 'x-forwarded-for': 'not-an-ip' });
    expect(bogus.body).toMatchObject({ SourceIP: '127.0.0.1' });
    const sessionId = (session.body as { ID: string }).ID;
    const { id } = (await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId, lessonStage: 0 })).body as { id: string };
    const lesson = (await api.call('GET', `/exp/livelesson/${id}`)).body as { LiveEndpoints: Record<string, { SSHPassword: string }> };
    expect(lesson.LiveEndpoints.linux1.SSHPassword).toBe('');
  });

  it('answers 429 with Retry-After past the per-client rate, without touching ops routes', async () => {
    let limited: { status: number; headers: Headers } | undefined;
    for (let i = 0; i < 30 && !limited; i++) {
      const response = await api.call('GET', '/exp/lesson', undefined, { 'x-forwarded-for': '203.0.113.50' });
      if (response.status === 429) limited = response;
    }
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await api.call('GET', '/exp/lesson', undefined, { 'x-forwarded-for': '203.0.113.51' })).status).toBe(200);
    expect((await api.call('GET', '/healthz', undefined, { 'x-forwarded-for': '203.0.113.50' })).status).toBe(200);
  });
});
