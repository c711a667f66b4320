import { makeCollection } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../test/api-fixture.js';
import { shapeProblems } from '../test/swagger-shape.js';

const ORIGIN = 'http://front-end.example';
/** What `fetch(url, {method: 'POST', body: JSON.stringify(…)})` in a browser sends. */
const BROWSER_POST = { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN };

describe('api for browsers (antidote-web): bodies, CORS, nulls, unknown fields, the swagger shapes', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    // antidote-web served from another origin, listed as an operator would (same origin needs nothing).
    api = await startApi('sqlite', { api: { rateLimitPerMinute: 0, corsOrigins: [ORIGIN] } });
  });
  afterAll(() => api?.stop());

  const post = (path: string, body: string, headers: Record<string, string> = BROWSER_POST) => api.call('POST', path, body, headers);
  const newSession = async (): Promise<string> => ((await post('/exp/livesession', '{}')).body as { ID: string }).ID;

  it('reads text/plain bodies that are JSON objects; refuses untyped bodies, forms, multipart and other text with 415, creating nothing', async () => {
    const session = await post('/exp/livesession', JSON.stringify({}));
    expect(session).toMatchObject({ status: 200, body: { ID: expect.stringMatching(/^[a-z0-9]{10}$/) } });
    const sessionId = (session.body as { ID: string }).ID;
    expect(await post('/exp/livelesson', JSON.stringify({ lessonSlug: 'linux-basics', sessionId, lessonStage: 0 }))).toMatchObject({
      status: 200,
      body: { id: expect.any(String) },
    });
    const sessions = (await api.data.liveSessions.list()).length;
    const lessons = (await api.data.liveLessons.list()).length;
    const untyped = await fetch(`${api.url}/exp/livelesson`, { method: 'POST', body: Buffer.from(JSON.stringify({ lessonSlug: 'web-services', sessionId })) });
    expect(untyped.status).toBe(415);
    const refusals: [string, string][] = [
      ['application/x-www-form-urlencoded', 'a=1'],
      ['multipart/form-data; boundary=x', 'a=1'],
      ['text/html', '{}'],
      // An HTML form with enctype="text/plain" sends `name=value` lines.
      ['text/plain', 'lessonSlug=web-services\r\nsessionId=x\r\n'],
      ['text/plain;charset=UTF-8', '[{"lessonSlug":"web-services"}]'],
      ['text/plain', '"a string"'],
    ];
    for (const [type, body] of refusals) {
      const refused = await post('/exp/livesession', body, { 'content-type': type, origin: ORIGIN });
      expect(refused, `${type} ${body}`).toMatchObject({
        status: 415,
        body: { code: 3, error: expect.stringMatching(/unsupported content type|must be a JSON object/) },
      });
      expect(refused.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    }
    expect(await api.data.liveSessions.list()).toHaveLength(sessions);
    expect(await api.data.liveLessons.list()).toHaveLength(lessons);
  });

  it('refuses malformed and oversized JSON in the gateway error shape', async () => {
    const malformed = await post('/exp/livelesson', '{"lessonSlug": ', { 'content-type': 'application/json', origin: ORIGIN });
    expect(malformed).toMatchObject({ status: 400, body: { code: 3, error: expect.stringContaining('malformed'), details: [] } });
    expect((malformed.body as { error: string }).error).toBe((malformed.body as { message: string }).message);
    expect(await post('/exp/livelesson', '{"lessonSlug": ')).toMatchObject({
      status: 415,
      body: { code: 3, error: expect.stringContaining('must be a JSON object') },
    });
    expect(await post('/exp/livelesson', JSON.stringify({ lessonSlug: 'x'.repeat(100_000) }))).toMatchObject({ status: 413, body: { code: 3 } });
  });

  it('answers a preflight from another origin as the original did, and puts Access-Control-Allow-Origin on every /exp answer', async () => {
    const preflight = await api.call('OPTIONS', '/exp/livelesson', undefined, {
      origin: ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    expect(preflight.status).toBe(204);
    expect(Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith('access-control-')))).toEqual({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-headers': 'Content-Type,Accept',
      'access-control-allow-methods': 'GET,HEAD,POST,PUT,DELETE',
      'access-control-max-age': '600',
    });
    for (const path of ['/exp/lesson', '/exp/livelesson/nosuchlesson']) {
      expect((await api.call('GET', path, undefined, { origin: ORIGIN })).headers.get('access-control-allow-origin')).toBe(ORIGIN);
    }
    expect((await api.call('GET', '/exp/admin/livelessons', undefined, { origin: ORIGIN })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('reads null fields as the original (zero values), ignores unknown fields, and keeps the "Invalid session ID" retry text', async () => {
    const sessionId = await newSession();
    const created = await post(
      '/exp/livelesson',
      JSON.stringify({ lessonSlug: 'linux-basics', sessionId, lessonStage: null, lessonId: 3, shiny: { nested: true } }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { id } = created.body as { id: string };
    expect((await api.data.liveLessons.get(id)).currentStage).toBe(0);
    expect((await post('/exp/livelesson', JSON.stringify({ lessonSlug: 'linux-basics', sessionId }))).body).toEqual({ id });
    expect(await post('/exp/livelesson', JSON.stringify({ lessonSlug: 'linux-basics', sessionId: null, lessonStage: null }))).toMatchObject({
      status: 400,
      body: { message: 'Session ID cannot be nil' },
    });
    const stale = await post('/exp/livelesson', JSON.stringify({ lessonSlug: 'linux-basics', sessionId: 'expired0000', lessonStage: 0 }));
    expect(stale).toMatchObject({ status: 400, body: { code: 3, error: 'Invalid session ID expired0000', message: 'Invalid session ID expired0000' } });
    // antidote-web then asks for a new session and sends the request again.
    const retried = await post('/exp/livelesson', JSON.stringify({ lessonSlug: 'linux-basics', sessionId: await newSession(), lessonStage: 0 }));
    expect(retried.status).toBe(200);
    expect(await post('/exp/livesession', JSON.stringify({ anything: 'goes' }))).toMatchObject({ status: 200 });
  });

  it('answers every /exp route antidote-web reads in the swagger shapes, key case and empty lists included', async () => {
    const get = async (path: string) => {
      const answer = await api.call('GET', path, undefined, { origin: ORIGIN });
      expect(answer.status, path).toBe(200);
      return answer.body;
    };
    const sessionId = await newSession();
    const { id } = (await post('/exp/livelesson', JSON.stringify({ lessonSlug: 'network-automation', sessionId, lessonStage: 0 }))).body as { id: string };
    const checks: [string, string, unknown, string[]?][] = [
      ['lesson', 'expLessons', await get('/exp/lesson')],
      ['lesson', 'expLessons', await get('/exp/lesson?Category=nosuchcategory')],
      ['lesson', 'expLesson', await get('/exp/lesson/network-automation')],
      ['lesson', 'expLesson', await get('/exp/lesson/linux-basics')],
      ['lesson', 'expLessonPrereqs', await get('/exp/lesson/network-automation/prereqs')],
      ['lesson', 'expLessonPrereqs', await get('/exp/lesson/linux-basics/prereqs')],
      ['collection', 'expCollections', await get('/exp/collection')],
      ['collection', 'expCollection', await get('/exp/collection/getting-started')],
      ['curriculum', 'expCurriculumInfo', await get('/exp/curriculum')],
      ['antidoteinfo', 'expAntidoteInfo', await get('/exp/antidoteinfo')],
      ['livesession', 'expLiveSession', (await post('/exp/livesession', '{}')).body],
      ['livelesson', 'expLiveLessonId', { id }],
      [
        'livelesson',
        'expLiveLesson',
        await get(`/exp/livelesson/${id}`),
        ['FailureReason', 'PhaseTimes', 'EstimatedReadyAt', 'EstimatedSecondsLeft', 'QueuePosition'],
      ],
    ];
    for (const [file, definition, body, extras] of checks)
      expect(shapeProblems(file, definition, body, extras), `${definition} ${JSON.stringify(body).slice(0, 200)}`).toEqual([]);
    // A collection without lessons has no Lessons key, as the original answered: antidote-web shows "Coming Soon!" only then.
    await api.data.curriculum.insertCollections([makeCollection({ slug: 'coming-soon' })]);
    const empty = (await get('/exp/collection/coming-soon')) as Record<string, unknown>;
    expect(shapeProblems('collection', 'expCollection', empty, [], ['Lessons'])).toEqual([]);
    expect(empty).not.toHaveProperty('Lessons');
    const listed = ((await get('/exp/collection')) as { collections: Record<string, unknown>[] }).collections;
    expect(listed.find((collection) => collection.Slug === 'coming-soon')).not.toHaveProperty('Lessons');
    // The sample curriculum's getting-started lessons: linux-basics, network-automation, host-networking.
    expect(listed.find((collection) => collection.Slug === 'getting-started')?.Lessons).toHaveLength(3);
    expect(await get('/exp/lesson?Category=nosuchcategory')).toEqual({ lessons: [] });
    expect(await get('/exp/lesson/linux-basics/prereqs')).toEqual({ prereqs: [] });
    expect(await get('/exp/lesson/network-automation/prereqs')).toEqual({ prereqs: ['linux-basics'] });
  });
});
