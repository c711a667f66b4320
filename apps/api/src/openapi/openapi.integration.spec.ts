import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../../test/api-fixture.js';
import { readEvents } from '../../test/sse.js';
import { referenceProblems, type OpenApi } from '../../test/swagger-compat.js';
import { API_ROUTES } from './api-routes.js';
import { DOCS_CSP } from './docs-ui.js';
import * as exp from './exp-responses.schema.js';

/** Where ours knowingly differs from the reference: error details name the field at fault, not a protobuf Any. */
const KNOWN_DEVIATIONS = (problems: string[]): string[] => problems.filter((problem) => !/ default\.details\[\]\.(type_url|value): missing$/.test(problem));

const ADMIN = { authorization: 'Bearer secret-admin-token' };

describe('the OpenAPI document and its UI, against the running api', () => {
  let api: ApiFixture;
  let document: OpenApi;
  let address = 0;
  /** Each request from its own client address (the api trusts loopback proxies), so only the rate-limit check shares a budget. */
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api.call(method, path, body, { 'x-forwarded-for': `10.77.${Math.floor(++address / 250)}.${(address % 250) + 1}`, ...headers });

  beforeAll(async () => {
    api = await startApi('sqlite', { api: { rateLimitPerMinute: 1 } });
    const answer = await call('GET', '/exp/openapi.json');
    expect(answer.status).toBe(200);
    document = answer.body as OpenApi;
  });
  afterAll(() => api?.stop());

  it('has every /exp path and method of the reference swagger files, with compatible parameters, bodies and responses', () => {
    const { problems, operations } = referenceProblems(document);
    expect(operations).toBe(10);
    expect(KNOWN_DEVIATIONS(problems)).toEqual([]);
    // The one deviation is really there (the check compares nested definitions), and nothing else is excused.
    expect(problems.length).toBeGreaterThan(0);
  });

  it('documents every route of the table, each $ref resolving to a component', () => {
    for (const route of API_ROUTES) expect(document.paths[route.path]?.[route.method], `${route.method} ${route.path}`).toBeDefined();
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((match) => match[1]);
    expect(refs.length).toBeGreaterThan(40);
    for (const ref of refs) expect(document.components.schemas[ref], ref).toBeDefined();
  });

  it('describes what the api really answers: every success body parses with the schema the document was generated from', async () => {
    const checked: string[] = [];
    const check = async (schema: z.ZodType, method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      const answer = await call(method, path, body, headers);
      expect(answer.status, `${method} ${path} ${JSON.stringify(answer.body).slice(0, 200)}`).toBe(200);
      const parsed = schema.safeParse(answer.body);
      expect(parsed.success ? [] : parsed.error.issues, `${method} ${path}`).toEqual([]);
      checked.push(`${method} ${path}`);
      return answer.body;
    };
    const session = (await check(exp.expLiveSession, 'POST', '/exp/livesession', {})) as { ID: string };
    await check(exp.expLiveSession, 'GET', `/exp/livesession/${session.ID}`);
    const { id } = (await check(exp.expLiveLessonId, 'POST', '/exp/livelesson', {
      lessonSlug: 'network-automation',
      sessionId: session.ID,
      lessonStage: 0,
    })) as { id: string };
    await check(exp.expLiveLesson, 'GET', `/exp/livelesson/${id}`);
    await check(exp.liveLessonStatusStreamEvent, 'POST', `/exp/livelesson/${id}/keepalive`, { sessionId: session.ID });
    await check(exp.expSessionLiveLessons, 'GET', `/exp/livesession/${session.ID}/livelessons`);
    await check(exp.expQueue, 'GET', '/exp/admin/queue', undefined, ADMIN);
    await check(exp.expLessons, 'GET', '/exp/lesson');
    await check(exp.expLessons, 'GET', '/exp/lesson?Category=tools');
    await check(exp.expLesson, 'GET', '/exp/lesson/network-automation');
    await check(exp.expLessonPrereqs, 'GET', '/exp/lesson/network-automation/prereqs');
    await check(exp.expCollections, 'GET', '/exp/collection');
    await check(exp.expCollection, 'GET', '/exp/collection/getting-started');
    await check(exp.expImages, 'GET', '/exp/image');
    await check(exp.expImage, 'GET', '/exp/image/utility');
    await check(exp.expCurriculumInfo, 'GET', '/exp/curriculum');
    await check(exp.expAntidoteInfo, 'GET', '/exp/antidoteinfo');
    await check(exp.expLiveLessons, 'GET', '/exp/admin/livelessons', undefined, ADMIN);
    await check(exp.expLiveSessions, 'GET', '/exp/admin/livesessions', undefined, ADMIN);
    await check(exp.expPools, 'GET', '/exp/admin/pools', undefined, ADMIN);
    await check(exp.expPool, 'PUT', '/exp/admin/pools/linux-basics', { size: 0 }, ADMIN);
    await check(exp.expKillLiveLessonStatus, 'DELETE', '/exp/admin/pools/linux-basics', undefined, ADMIN);
    await check(exp.expLiveSession, 'PUT', `/exp/admin/livesession/${session.ID}/persistence`, { persistent: true }, ADMIN);
    await check(exp.healthz, 'GET', '/healthz');
    await check(exp.readyz, 'GET', '/readyz');

    // The stream of a READY lesson: its state, then the end.
    await api.data.liveLessons.updateStatus(id, 'READY');
    const events = await readEvents(`${api.url}/exp/livelesson/${id}/events`, () => undefined, undefined, { 'x-forwarded-for': '10.78.0.1' });
    expect(events.map((event) => event.event)).toEqual(['status']);
    expect(exp.liveLessonStatusStreamEvent.safeParse(events[0].data).error?.issues ?? []).toEqual([]);

    await check(exp.expKillLiveLessonStatus, 'DELETE', `/exp/livelesson/${id}?sessionId=${session.ID}`);
    const other = (await check(exp.expLiveSession, 'POST', '/exp/livesession', {})) as { ID: string };
    const { id: second } = (await check(exp.expLiveLessonId, 'POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId: other.ID })) as { id: string };
    await check(exp.expKillLiveLessonStatus, 'DELETE', `/exp/admin/livelesson/${second}`, undefined, ADMIN);
    await check(exp.expKillLiveSessionStatus, 'DELETE', `/exp/admin/livesession/${other.ID}`, undefined, ADMIN);
    const json = API_ROUTES.filter((route) => 'json' in route.ok).length;
    expect(new Set(checked.map((call) => call.split(' ')[0] + ' ' + call.split(' ')[1].replace(/\?.*/, ''))).size).toBeGreaterThanOrEqual(json);
  });

  it('answers each provoked error with a status the document lists for that operation, in the documented error shape', async () => {
    const session = ((await call('POST', '/exp/livesession', {})).body as { ID: string }).ID;
    const { id } = (await call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId: session })).body as { id: string };
    const cases: [string, string, string, number, unknown?, Record<string, string>?][] = [
      ['get', '/exp/livesession/{id}', '/exp/livesession/bad!id', 400],
      ['get', '/exp/livesession/{id}', '/exp/livesession/nosuchsession', 404],
      ['post', '/exp/livesession', '/exp/livesession', 415, 'a=1', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['post', '/exp/livelesson', '/exp/livelesson', 400, { lessonSlug: 'linux-basics' }],
      ['post', '/exp/livelesson', '/exp/livelesson', 404, { lessonSlug: 'nosuchlesson', sessionId: session }],
      ['post', '/exp/livelesson', '/exp/livelesson', 409, { lessonSlug: 'linux-basics', sessionId: session, lessonStage: 1 }],
      ['post', '/exp/livelesson', '/exp/livelesson', 413, { lessonSlug: 'x'.repeat(100_000) }],
      ['get', '/exp/livelesson/{id}', '/exp/livelesson/nosuchlesson', 404],
      ['delete', '/exp/livelesson/{id}', `/exp/livelesson/${id}`, 403],
      ['get', '/exp/livelesson/{id}/events', '/exp/livelesson/nosuchlesson/events', 404],
      ['get', '/exp/livelesson/{id}/events', `/exp/livelesson/${id}/events?follow=maybe`, 400],
      ['post', '/exp/livelesson/{id}/keepalive', '/exp/livelesson/nosuchlesson/keepalive', 404, { sessionId: session }],
      ['post', '/exp/livelesson/{id}/keepalive', `/exp/livelesson/${id}/keepalive`, 400, {}],
      ['get', '/exp/lesson', '/exp/lesson?Bogus=1', 400],
      ['get', '/exp/lesson/{slug}', '/exp/lesson/nosuchlesson', 404],
      ['get', '/exp/lesson/{slug}/prereqs', '/exp/lesson/bad_slug/prereqs', 400],
      ['get', '/exp/collection/{slug}', '/exp/collection/nosuchcollection', 404],
      ['get', '/exp/image/{slug}', '/exp/image/nosuchimage', 404],
      ['get', '/exp/admin/livelessons', '/exp/admin/livelessons', 401],
      ['get', '/exp/admin/livesessions', '/exp/admin/livesessions', 403, undefined, { authorization: 'Bearer wrong' }],
      ['delete', '/exp/admin/livelesson/{id}', '/exp/admin/livelesson/nosuchlesson', 404, undefined, ADMIN],
      ['delete', '/exp/admin/livesession/{id}', '/exp/admin/livesession/nosuchsession', 404, undefined, ADMIN],
      ['put', '/exp/admin/livesession/{id}/persistence', `/exp/admin/livesession/${session}/persistence`, 400, { persistent: 'yes' }, ADMIN],
      ['put', '/exp/admin/livesession/{id}/persistence', `/exp/admin/livesession/${session}/persistence`, 400, { persistent: true, extra: 1 }, ADMIN],
    ];
    for (const [method, template, path, status, body, headers] of cases) {
      const answer = await call(method.toUpperCase(), path, body, headers);
      const label = `${method} ${path}`;
      expect(answer.status, `${label} ${JSON.stringify(answer.body).slice(0, 200)}`).toBe(status);
      expect(Object.keys(document.paths[template][method].responses), label).toContain(String(status));
      expect(exp.runtimeError.safeParse(answer.body).error?.issues ?? [], label).toEqual([]);
    }
    // The per-client rate limit (1 a minute here): the same address twice.
    const limited = [
      await api.call('GET', '/exp/image', undefined, { 'x-forwarded-for': '10.79.0.1' }),
      await api.call('GET', '/exp/image', undefined, { 'x-forwarded-for': '10.79.0.1' }),
    ];
    expect(limited.map((answer) => answer.status)).toEqual([200, 429]);
    expect(Object.keys(document.paths['/exp/image'].get.responses)).toContain('429');
    expect(exp.runtimeError.safeParse(limited[1].body).success).toBe(true);
    // The limiter is middleware, so it counts unknown routes too (a guard such as ThrottlerGuard runs only on matched handlers).
    const unknown = [
      await api.call('GET', '/exp/nosuchroute', undefined, { 'x-forwarded-for': '10.79.0.2' }),
      await api.call('GET', '/nosuchroute', undefined, { 'x-forwarded-for': '10.79.0.2' }),
    ];
    expect(unknown.map((answer) => answer.status)).toEqual([404, 429]);
  });

  it('serves the Swagger UI at /exp/docs with its own assets only, under a self-only CSP', async () => {
    const page = await fetch(`${api.url}/exp/docs`, { headers: { 'x-forwarded-for': '10.80.0.1' }, signal: AbortSignal.timeout(20_000) });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(DOCS_CSP).not.toMatch(/https?:|\*|unsafe/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets.sort()).toEqual([
      '/exp/docs/docs-init.js',
      '/exp/docs/favicon-32x32.png',
      '/exp/docs/index.css',
      '/exp/docs/swagger-ui-bundle.js',
      '/exp/docs/swagger-ui.css',
    ]);
    const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    let index = 0;
    for (const asset of assets) {
      const answer = await fetch(`${api.url}${asset}`, { headers: { 'x-forwarded-for': `10.81.0.${++index}` }, signal: AbortSignal.timeout(20_000) });
      expect(answer.status, asset).toBe(200);
      expect(answer.headers.get('content-security-policy'), asset).toBe(DOCS_CSP);
      expect(answer.headers.get('x-content-type-options'), asset).toBe('nosniff');
      const body = Buffer.from(await answer.arrayBuffer());
      const name = asset.split('/').at(-1)!;
      if (name === 'docs-init.js') expect(body.toString()).toContain("url: '/exp/openapi.json'");
      else expect(body.equals(readFileSync(join(dist, name))), asset).toBe(true);
      expect(answer.headers.get('content-type'), asset).toMatch(
        name.endsWith('.js') ? /^text\/javascript/ : name.endsWith('.css') ? /^text\/css/ : /^image\/png/,
      );
    }
    for (const path of ['/exp/docs/swagger-ui.js.map', '/exp/docs/package.json', '/exp/docs/..%2F..%2Fpackage.json', '/exp/docs/index.js']) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(404);
    }
  });
});
