import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../test/api-fixture.js';
import { openSlowClients } from '../test/edge-load.js';
import { rawRequest } from '../test/raw-http.js';
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
    const events = await readEvents(
      `${api.url}/exp/livelesson/${id}/events`,
      () => undefined,
      (event) => {
        const status = next[event.data.status ?? ''];
        if (!status) return;
        api.publishStatus({ liveLessonId: 'someone-else', status: 'READY' });
        void api.data.liveLessons.updateStatus(id, status).then(() => api.publishStatus({ liveLessonId: id, status }));
      },
    );
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
    expect(await api.call('PUT', `/exp/admin/livesession/${sessionId}/persistence`, { persistent: true }, auth)).toMatchObject({
      status: 200,
      body: { ID: sessionId, Persistent: true },
    });
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
    for (const slug of ['linux-basics', 'web-services'])
      expect((await api.call('POST', '/exp/livelesson', { lessonSlug: slug, sessionId: 'limitsession', lessonStage: 0 })).status).toBe(200);
    expect((await api.call('POST', '/exp/livelesson', { lessonSlug: 'jupyter-intro', sessionId: 'limitsession', lessonStage: 0 })).body).toMatchObject({
      code: 8,
      message: 'This session address has exceeded the maximum number of liveLessons',
    });
  });

  it('lets a learner retry a failed lesson whose namespace was cleaned up', async () => {
    await api.data.liveSessions.create({ id: 'retrysession', sourceIp: '198.51.100.2' });
    const first = (
      (await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId: 'retrysession', lessonStage: 0 })).body as { id: string }
    ).id;
    await api.data.liveLessons.markFailed(first, 'pods failed: ErrImagePull');
    expect((await api.call('GET', `/exp/livelesson/${first}`)).body).toMatchObject({ code: 9, message: expect.stringContaining('pods failed: ErrImagePull') });
    const second = (
      (await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId: 'retrysession', lessonStage: 0 })).body as { id: string }
    ).id;
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

describe('one path for the router and every check: spellings of a path never split them', () => {
  const FRONT_END = 'https://labs.example.org';
  const EVIL = 'https://evil.example';
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi('sqlite', { api: { rateLimitPerMinute: 0, corsOrigins: [FRONT_END] } });
  });
  afterAll(() => api?.stop());

  const write = (origin?: string) => ({ 'content-type': 'text/plain', ...(origin ? { origin } : {}) });
  // [method, path as sent, headers, status, Access-Control-Allow-Origin, sessions created]
  const spellings: [string, string, Record<string, string>, number, string | null, number][] = [
    // A write from another origin is refused however its path is spelled (the router would match all of these)…
    ['POST', '/EXP/livesession', write(EVIL), 403, null, 0],
    ['POST', '/exp/LiveSession', write(EVIL), 403, null, 0],
    ['POST', '/exp/livesession/', write(EVIL), 403, null, 0],
    ['POST', '//exp//livesession', write(EVIL), 403, null, 0],
    ['POST', '/exp/%6civesession', write(EVIL), 403, null, 0],
    ['POST', '/exp/x/../livesession', write(EVIL), 403, null, 0],
    // …and routing is exact: a spelling that differs in case is no route at all.
    ['POST', '/EXP/livesession', write(), 404, null, 0],
    ['POST', '/exp/LIVESESSION', write(), 404, null, 0],
    ['POST', '/exp/./livesession/', write(FRONT_END), 200, FRONT_END, 1],
    ['POST', '/exp/%6C%69vesession', write(), 200, null, 1],
    // Admin routes: the guard and no CORS, however the path reaches them.
    ['GET', '/exp/%61dmin/livelessons', { origin: FRONT_END }, 401, null, 0],
    ['GET', '/exp/lesson/../admin/livelessons', { origin: FRONT_END }, 401, null, 0],
    ['GET', '/exp/lesson/%2e%2e/%2E%2E/exp/admin/livesessions/', { origin: FRONT_END }, 401, null, 0],
    ['GET', '//exp/admin//livelessons', { origin: FRONT_END }, 401, null, 0],
    ['GET', '/EXP/ADMIN/livelessons', { origin: FRONT_END }, 404, null, 0],
    ['GET', '/exp/lesson/', { origin: FRONT_END }, 200, FRONT_END, 0],
    ['GET', '/healthz/', {}, 200, null, 0],
    ['GET', '/HEALTHZ', {}, 404, null, 0],
    // A path with no one meaning is refused before anything looks at it.
    ['POST', '/exp/livesession;jsessionid=1', write(), 400, null, 0],
    ['GET', '/exp/lesson%zz', {}, 400, null, 0],
    ['GET', '/exp/lesson/%00', {}, 400, null, 0],
    ['GET', '/exp\\lesson', {}, 400, null, 0],
    ['GET', '*', {}, 400, null, 0],
  ];

  it.each(spellings)('%s %s %j → %i', async (method, path, headers, status, allowOrigin, created) => {
    const before = (await api.data.liveSessions.list()).length;
    const answer = await rawRequest(api.url, { method, path, headers, body: method === 'POST' ? '{}' : undefined });
    expect(answer.status).toBe(status);
    expect(answer.headers['access-control-allow-origin'] ?? null).toBe(allowOrigin);
    expect((await api.data.liveSessions.list()).length - before).toBe(created);
  });

  it('exempts from the rate limit only the ops routes themselves, spelled any way the router takes them', async () => {
    const limited = await startApi('sqlite', { api: { rateLimitPerMinute: 2 } });
    try {
      const statuses = async (path: string) => {
        const answers = [];
        for (let i = 0; i < 4; i++) answers.push((await rawRequest(limited.url, { path, localAddress: '127.0.0.7' })).status);
        return answers;
      };
      expect(await statuses('/healthz/')).toEqual([200, 200, 200, 200]);
      expect(await statuses('/exp/lesson/')).toEqual([200, 200, 429, 429]);
      expect(await statuses('/Healthz')).toEqual([429, 429, 429, 429]);
    } finally {
      await limited.stop();
    }
  });
});

describe('one client, however it is spelled: IPv4 as IPv4-mapped IPv6, every address of an IPv6 /64', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    // The clients reach it through a trusted proxy (loopback), which names them in X-Forwarded-For.
    api = await startApi('sqlite', { liveSessionLimit: 2, api: { rateLimitPerMinute: 3, maxStreamsPerClient: 1 } });
  });
  afterAll(() => api?.stop());

  const as = (client: string) => ({ 'x-forwarded-for': client });
  const newSession = async (client: string) => (await api.call('POST', '/exp/livesession', {}, as(client))).status;

  it('counts sessions per client: two spellings of one IPv4 address, and two addresses of one /64, are one client each', async () => {
    expect([await newSession('198.51.100.20'), await newSession('::ffff:198.51.100.20'), await newSession('::ffff:c633:6414')]).toEqual([200, 200, 429]);
    expect([await newSession('2001:db8:1:2::1'), await newSession('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), await newSession('2001:db8:1:2:ffff::9')]).toEqual([
      200, 200, 429,
    ]);
    // Another /64 is another client; the session records the client as the limit counts it.
    const other = await api.call('POST', '/exp/livesession', {}, as('2001:db8:1:3::1'));
    expect(other).toMatchObject({ status: 200, body: { SourceIP: '2001:db8:1:3::/64' } });
  });

  it('rate-limits per client the same way', async () => {
    const statuses = [];
    for (const address of ['2001:db8:9:9::1', '2001:db8:9:9::2', '2001:db8:9:9::3', '2001:db8:9:9::4'])
      statuses.push((await api.call('GET', '/exp/lesson', undefined, as(address))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await api.call('GET', '/exp/lesson', undefined, as('2001:db8:9:a::1'))).status).toBe(200);
  });
});

describe('request time limits: a client that never finishes its headers or its body is answered 408 and let go', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi('sqlite', { api: { headersTimeoutSeconds: 1, requestTimeoutSeconds: 2 } });
  });
  afterAll(() => api?.stop());

  it('ends both within seconds (Node looks for overdue requests every second)', async () => {
    const slow = await openSlowClients(Number(new URL(api.url).port), [
      { address: '127.0.0.8', count: 1, kind: 'headers' },
      { address: '127.0.0.9', count: 1, kind: 'body' },
    ]);
    await expect.poll(async () => await slow.counts(), { interval: 100, timeout: 20_000 }).toEqual({ connected: 2, answered: 2, closed: 2 });
    await slow.stop();
  });
});
