import { LiveLessonStatus } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { schedulerService } from '@antidote/scheduler';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { DATABASE_KINDS, INSTANCE, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiService } from './api.definition.js';

type Platform = TestPlatform<'healthchecker' | 'scheduler' | 'api', KubeSim>;
const POOLED = 'linux-basics';
const OTHER = 'network-automation';
const SIZE = 2;
const ADMIN = 'pool-admin-token';

/**
 * Warm pools through the api with every service running for real: a request for a pooled lesson claims
 * a READY member (atomically, even across api replicas) and answers at once; another stage claims then
 * changes stage; an empty pool falls back to the normal CREATE; members never count as a learner's.
 */
describe.each(DATABASE_KINDS)('warm pools through the api on kube-sim, nats-server and %s', (kind) => {
  let p: Platform;
  let api = '';

  beforeAll(async () => {
    p = await startTestPlatform(kind, {
      cluster: startKubeSim,
      services: { healthchecker: healthcheckerService, scheduler: schedulerService, api: apiService },
      overrides: {
        httpPort: 0,
        api: { host: '127.0.0.1', adminToken: ADMIN },
        liveSessionLimit: 0,
        liveLessonLimit: 1,
        scheduler: { redriveIntervalSeconds: 1, redriveAfterSeconds: 1, claimLeaseSeconds: 5, poolIntervalSeconds: 1 },
        warmPools: { [POOLED]: { size: SIZE, maxAge: 0 } },
      },
    });
    api = p.running('api')[0].url;
  });
  afterAll(() => p?.stop());

  const call = async (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const newSession = async (base = api): Promise<string> => (await call(base, 'POST', '/exp/livesession', {})).body.ID as string;
  const request = (sessionId: string, lessonSlug = POOLED, lessonStage = 0, base = api) =>
    call(base, 'POST', '/exp/livelesson', { sessionId, lessonSlug, lessonStage });
  const readyMembers = async () =>
    (await p.data.pools.members()).filter((m) => m.status === LiveLessonStatus.READY && !m.error && !m.deleteRequestedAt).map((m) => m.id);
  const poolFull = () => expect.poll(async () => (await readyMembers()).length).toBe(SIZE);
  const liveSessionLabel = (id: string) => p.sim.list('namespaces').find((n) => n.metadata.name === `${INSTANCE}-${id}`)?.metadata.labels?.liveSession;

  it('answers a claimed lesson READY for its learner in one request, labels its namespace for the session, and refills', async () => {
    await poolFull();
    const members = await readyMembers();
    const sessionId = await newSession();
    const answer = await request(sessionId);
    expect(answer.status).toBe(200);
    const id = answer.body.id as string;
    expect(members).toContain(id);
    expect((await call(api, 'GET', `/exp/livelesson/${id}`)).body).toMatchObject({ ID: id, Status: 'READY', CurrentStage: 0, LessonSlug: POOLED });
    expect(await p.data.liveLessons.get(id)).toMatchObject({ sessionId, pool: false, status: LiveLessonStatus.READY });
    await expect.poll(() => liveSessionLabel(id)).toBe(sessionId);
    // The pool refills beside the claimed lesson, which stays the learner's.
    await expect.poll(async () => (await readyMembers()).filter((member) => member !== id).length).toBe(SIZE);
    expect((await request(sessionId)).body).toEqual({ id });
    const pools = await call(api, 'GET', '/exp/admin/pools', undefined, { authorization: `Bearer ${ADMIN}` });
    expect(pools.body).toEqual({
      pools: [{ lesson: POOLED, mode: 'fixed', size: SIZE, maxAge: 0, ready: expect.any(Number), building: expect.any(Number), retiring: expect.any(Number) }],
    });
    // Each claim is demand, counted per minute in the database (what adaptive pools are sized from).
    await expect.poll(async () => (await p.data.poolSizing.demandSince(new Date(0))).get(POOLED)?.hits ?? 0).toBeGreaterThan(0);
  });

  it('gives two concurrent claims through two api replicas two different members', async () => {
    const second = await p.start('api');
    try {
      await poolFull();
      const members = await readyMembers();
      const sessions = [await newSession(), await newSession(second.url)];
      const answers = await Promise.all([request(sessions[0]), request(sessions[1], POOLED, 0, second.url)]);
      const ids = answers.map((answer) => answer.body.id as string);
      expect(new Set(ids).size).toBe(2);
      expect(members).toEqual(expect.arrayContaining(ids));
      for (const [i, id] of ids.entries()) expect(await p.data.liveLessons.get(id)).toMatchObject({ sessionId: sessions[i], status: LiveLessonStatus.READY });
    } finally {
      await p.stopService('api', second);
    }
  });

  it('claims for a request of another stage, then changes the stage as for any live lesson', async () => {
    await poolFull();
    const members = await readyMembers();
    const { body } = await request(await newSession(), POOLED, 1);
    expect(members).toContain(body.id);
    await expect
      .poll(async () => {
        const lesson = await p.data.liveLessons.get(body.id as string);
        return [lesson.status, lesson.currentStage, lesson.configuredStage, lesson.error];
      })
      .toEqual([LiveLessonStatus.READY, 1, 1, false]);
  });

  it('never counts pool members as a learner’s lessons; the claimed one does count', async () => {
    await poolFull();
    const sessionId = await newSession();
    // liveLessonLimit is 1 and the pool holds members of no session: the learner still gets a lab.
    const { status, body } = await request(sessionId);
    expect(status).toBe(200);
    expect(await p.data.liveLessons.idsForSession(sessionId)).toEqual([body.id]);
    expect((await request(sessionId, OTHER)).status).toBe(429);
  });

  it('resizes a pool for every scheduler through the admin route: an operator’s pool fills, and drains at 0', async () => {
    const admin = { authorization: `Bearer ${ADMIN}` };
    const resize = (slug: string, body: unknown, headers: Record<string, string> = admin) => call(api, 'PUT', `/exp/admin/pools/${slug}`, body, headers);
    const membersOf = async (slug: string) => (await p.data.pools.members()).filter((m) => m.lessonSlug === slug);
    expect((await resize(OTHER, { size: 1 }, {})).status).toBe(401);
    for (const bad of [{ size: -1 }, { size: 1.5 }, {}, { size: 1, maxAge: -1 }, { size: 1, extra: true }, { size: '1' }])
      expect((await resize(OTHER, bad)).status).toBe(400);
    expect((await resize('Bad_Slug', { size: 1 })).status).toBe(400);
    const unknown = await resize('no-such-lesson', { size: 1 });
    expect(unknown).toMatchObject({ status: 404, body: { message: expect.stringMatching(/no-such-lesson/) } });
    expect(await membersOf(OTHER)).toEqual([]);

    const set = await resize(OTHER, { size: 1, maxAge: 0 });
    expect(set).toMatchObject({ status: 200, body: { lesson: OTHER, mode: 'override', size: 1, maxAge: 0 } });
    await expect.poll(async () => (await membersOf(OTHER)).filter((m) => m.status === LiveLessonStatus.READY && !m.deleteRequestedAt).length).toBe(1);
    expect((await call(api, 'GET', '/exp/admin/pools', undefined, admin)).body.pools).toEqual([
      expect.objectContaining({ lesson: POOLED, mode: 'fixed' }),
      expect.objectContaining({ lesson: OTHER, mode: 'override', size: 1, ready: 1 }),
    ]);

    expect((await resize(OTHER, { size: 0 })).body).toMatchObject({ mode: 'override', size: 0 });
    await expect.poll(async () => (await membersOf(OTHER)).length).toBe(0);
    expect((await call(api, 'DELETE', `/exp/admin/pools/${OTHER}`, undefined, admin)).body).toEqual({ success: true });
    expect((await call(api, 'DELETE', `/exp/admin/pools/${OTHER}`, undefined, admin)).status).toBe(404);
    expect(((await call(api, 'GET', '/exp/admin/pools', undefined, admin)).body.pools as { lesson: string }[]).map((pool) => pool.lesson)).toEqual([POOLED]);
  });

  it('falls back to the normal CREATE when the pool has no READY member', async () => {
    await poolFull();
    // With no scheduler nothing new becomes READY: claim what is READY, and the pool is empty for sure.
    await p.stopService('scheduler');
    const ready = (await readyMembers()).length;
    for (let i = 0; i < ready; i++) expect((await request(await newSession())).status).toBe(200);
    expect(await readyMembers()).toEqual([]);
    const sessionId = await newSession();
    const { status, body } = await request(sessionId);
    expect(status).toBe(200);
    expect(await p.data.liveLessons.get(body.id as string)).toMatchObject({ sessionId, pool: false, status: LiveLessonStatus.INITIALIZED });
    await expect.poll(async () => (await p.data.poolSizing.demandSince(new Date(0))).get(POOLED)?.misses ?? 0).toBeGreaterThan(0);
    await p.start('scheduler');
    await expect.poll(async () => (await p.data.liveLessons.get(body.id as string)).status).toBe(LiveLessonStatus.READY);
  });
});
