import { RequestSubjects } from '@antidote/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../../test/api-fixture.js';
import { readEvents, type SseEvent } from '../../test/sse.js';
import * as exp from '../openapi/exp-responses.schema.js';

const ADMIN = { authorization: 'Bearer secret-admin-token' };
/** A learner's address (the api trusts 127.0.0.1's x-forwarded-for). */
const from = (address: string): Record<string, string> => ({ 'x-forwarded-for': address });

interface Detail {
  reason: string;
  learnerMessage: string;
  oldestLiveLessonId?: string;
  retryAfterSeconds?: number;
}
const detailOf = (body: unknown): Detail => (body as { details: Detail[] }).details[0];

describe("admission at the api: rates, the session's lab limit, my labs (stand-in scheduler)", () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi('sqlite', {
      api: { rateLimitPerMinute: 0, newSessionsPerAddress: { count: 3, perSeconds: 600 }, newLabsPerAddress: { count: 5, perSeconds: 600 } },
    });
  });
  afterAll(() => api?.stop());

  const session = async (address: string): Promise<string> => ((await api.call('POST', '/exp/livesession', {}, from(address))).body as { ID: string }).ID;
  const lab = (sessionId: string, lessonSlug: string, address: string, extra: Record<string, unknown> = {}) =>
    api.call('POST', '/exp/livelesson', { lessonSlug, sessionId, lessonStage: 0, ...extra }, from(address));

  it('limits the rate of new sessions per address, not how many it holds; other addresses are not affected', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await api.call('POST', '/exp/livesession', {}, from('127.0.3.1')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    const refused = answers[3];
    // 3 per 600 s: one more every 200 s.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(190);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(200);
    expect(exp.runtimeError.safeParse(refused.body).error?.issues ?? []).toEqual([]);
    expect(detailOf(refused.body)).toMatchObject({ reason: 'NEW_SESSION_RATE', learnerMessage: expect.stringMatching(/wait about \d+ minutes/) });
    expect((await api.call('POST', '/exp/livesession', {}, from('127.0.3.2'))).status).toBe(200);
  });

  it("past the session's 3 labs names the least recently used one; replaceOldest ends it and starts the new lab in one call", async () => {
    const address = '127.0.4.1';
    const sessionId = await session(address);
    const ids: Record<string, string> = {};
    for (const slug of ['linux-basics', 'web-services', 'network-automation']) ids[slug] = ((await lab(sessionId, slug, address)).body as { id: string }).id;
    // Kept alive (the same request again): linux-basics is no longer the least recently used.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await lab(sessionId, 'linux-basics', address)).body).toEqual({ id: ids['linux-basics'] });
    const refused = await lab(sessionId, 'jupyter-intro', address);
    expect(refused.status).toBe(429);
    expect(exp.runtimeError.safeParse(refused.body).error?.issues ?? []).toEqual([]);
    expect(refused.body).toMatchObject({ code: 8, error: 'This session address has exceeded the maximum number of liveLessons' });
    expect(detailOf(refused.body)).toMatchObject({
      reason: 'LIVE_LESSON_LIMIT',
      oldestLiveLessonId: ids['web-services'],
      learnerMessage: expect.stringContaining('"Web Services"'),
    });

    const replaced = await lab(sessionId, 'jupyter-intro', address, { replaceOldest: true });
    expect(replaced.status).toBe(200);
    const { id } = replaced.body as { id: string };
    expect((await api.data.liveLessons.get(ids['web-services'])).deleteRequestedAt).toBeInstanceOf(Date);
    await expect
      .poll(() =>
        (api.received[RequestSubjects.liveLessonDelete] ?? []).some((request) => (request as { liveLessonId: string }).liveLessonId === ids['web-services']),
      )
      .toBe(true);

    const mine = await api.call('GET', `/exp/livesession/${sessionId}/livelessons`);
    expect(exp.expSessionLiveLessons.safeParse(mine.body).error?.issues ?? []).toEqual([]);
    const listed = (
      mine.body as { LiveLessons: { ID: string; LessonSlug: string; Ending: boolean; Status: string; LastActiveTime: string; ExpiresAt: string }[] }
    ).LiveLessons;
    expect(listed.map((entry) => entry.ID)).toEqual([id, ids['linux-basics'], ids['network-automation'], ids['web-services']]);
    expect(listed.find((entry) => entry.ID === ids['web-services'])).toMatchObject({ Ending: true, LessonSlug: 'web-services' });
    const first = listed[0];
    expect(first).toMatchObject({ Status: 'INITIALIZED', Ending: false });
    // Expires liveLessonTTL (30 min) after its last activity.
    expect(new Date(first.ExpiresAt).getTime() - new Date(first.LastActiveTime).getTime()).toBe(30 * 60_000);
    expect((await api.call('GET', '/exp/livesession/nosuchsession/livelessons')).status).toBe(404);

    // A lab being ended is not handed out again; once the scheduler has removed it, the lesson can be asked for anew.
    expect(await lab(sessionId, 'web-services', address)).toMatchObject({ status: 409, body: { message: expect.stringContaining('being ended') } });
    await api.data.liveLessons.delete(ids['web-services']);
    // The documented sequence works too: end one (DELETE), then ask again.
    expect((await lab(sessionId, 'web-services', address)).status).toBe(429);
    expect((await api.call('DELETE', `/exp/livelesson/${ids['network-automation']}?sessionId=${sessionId}`)).status).toBe(200);
    expect((await lab(sessionId, 'web-services', address)).status).toBe(200);
  });

  it('limits the rate of new labs per address; a keep-alive or a stage change is not a new lab', async () => {
    const address = '127.0.5.1';
    const sessions = [await session(address), await session(address)];
    const statuses: number[] = [];
    for (const slug of ['linux-basics', 'web-services', 'network-automation']) statuses.push((await lab(sessions[0], slug, address)).status);
    for (const slug of ['linux-basics', 'web-services']) statuses.push((await lab(sessions[1], slug, address)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const { id } = (await lab(sessions[0], 'linux-basics', address)).body as { id: string };
    await api.data.liveLessons.updateStatus(id, 'READY');
    expect((await lab(sessions[0], 'linux-basics', address, { lessonStage: 1 })).status).toBe(200);
    const refused = await lab(sessions[1], 'network-automation', address);
    expect(refused.status).toBe(429);
    expect(detailOf(refused.body)).toMatchObject({ reason: 'NEW_LAB_RATE', retryAfterSeconds: expect.any(Number) });
    expect(refused.headers.get('retry-after')).toBe(String(detailOf(refused.body).retryAfterSeconds));
  });
});

describe('the waiting room at the api (stand-in scheduler: the test admits as the scheduler would)', () => {
  let api: ApiFixture;
  const CAP = 1;
  beforeAll(async () => {
    api = await startApi('sqlite', { liveLessonLimit: 1, scheduler: { maxLiveLessons: CAP, maxQueued: 2 }, api: { rateLimitPerMinute: 0 } });
  });
  afterAll(() => api?.stop());

  const request = async (lessonSlug: string, address: string) => {
    const sessionId = ((await api.call('POST', '/exp/livesession', {}, from(address))).body as { ID: string }).ID;
    return api.call('POST', '/exp/livelesson', { lessonSlug, sessionId, lessonStage: 0 }, from(address));
  };

  it('accepts a lab past capacity: INITIALIZED with its place and an estimate; a full line is 429 with Retry-After, nothing written', async () => {
    const running = ((await request('linux-basics', '127.0.6.1')).body as { id: string }).id;
    const waiting = await request('web-services', '127.0.6.2');
    expect(waiting.status).toBe(200);
    const { id } = waiting.body as { id: string };
    const got = await api.call('GET', `/exp/livelesson/${id}`);
    expect(exp.expLiveLesson.safeParse(got.body).error?.issues ?? []).toEqual([]);
    expect(got.body).toMatchObject({ Status: 'INITIALIZED', Error: false, QueuePosition: 1 });
    // No lab has ended yet: no history to estimate from (the running lab's expiry alone would say half an hour).
    expect(got.body).not.toHaveProperty('EstimatedWaitSeconds');
    expect(await api.call('GET', `/exp/livelesson/${running}`)).toMatchObject({ body: { QueuePosition: 0 } });
    expect((await request('network-automation', '127.0.6.3')).status).toBe(200);
    const rows = (await api.data.liveLessons.ids()).length;
    const full = await request('jupyter-intro', '127.0.6.4');
    expect(full.status).toBe(429);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThanOrEqual(5);
    expect(detailOf(full.body)).toMatchObject({ reason: 'QUEUE_FULL', learnerMessage: expect.stringContaining('waiting line is full') });
    expect(await api.data.liveLessons.ids()).toHaveLength(rows);

    const line = await api.call('GET', '/exp/admin/queue', undefined, ADMIN);
    expect(exp.expQueue.safeParse(line.body).error?.issues ?? []).toEqual([]);
    expect(line.body).toMatchObject({
      capacity: { max: CAP, holding: 1 },
      maxQueued: 2,
      waiting: 2,
      line: [
        { position: 1, liveLessonId: id, client: '127.0.6.2' },
        { position: 2, client: '127.0.6.3' },
      ],
    });
  });

  it('streams the place in line (queue events) until the lab leaves it, then its status to READY', async () => {
    const [head] = await api.data.admission.waiting();
    const events: SseEvent[] = [];
    const received = readEvents(
      `${api.url}/exp/livelesson/${head.liveLessonId}/events`,
      () => undefined,
      (event) => {
        events.push(event);
        const data = event.data as { position?: number };
        if (event.event === 'queue' && data.position === 1) void admitHead();
        if (event.event === 'queue' && data.position === 0)
          void api.data.liveLessons
            .updateStatus(head.liveLessonId, 'READY')
            .then(() => api.publishStatus({ liveLessonId: head.liveLessonId, status: 'READY', totalTests: 1 }));
      },
    );
    /** As the scheduler does once capacity frees: the running lab goes, the head is admitted. */
    const admitHead = async (): Promise<void> => {
      for (const holder of await api.data.admissionStats.holders()) await api.data.liveLessons.delete(holder.liveLessonId);
      expect((await api.data.admission.drain(CAP, new Date(0))).admitted.map((ticket) => ticket.liveLessonId)).toEqual([head.liveLessonId]);
    };
    await received;
    expect(events.map((event) => event.event)).toEqual(['status', 'queue', 'queue', 'status']);
    expect(events.map((event) => exp.liveLessonQueueStreamEvent.safeParse(event.data).success)).toEqual([false, true, true, false]);
    expect(events[1].data).toMatchObject({ position: 1, waiting: 2 });
    expect(events[2].data).toMatchObject({ position: 0 });
    expect(events[3].data).toMatchObject({ status: 'READY' });
    // The one behind it moved up.
    expect((await api.data.admission.waiting()).length).toBe(1);
  });

  it('ends nothing for a replaceOldest that a full line would refuse anyway', async () => {
    const address = '127.0.6.9';
    const sessionId = ((await api.call('POST', '/exp/livesession', {}, from(address))).body as { ID: string }).ID;
    const { id } = (await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId }, from(address))).body as { id: string };
    expect(await api.data.admission.waitingCount()).toBe(2);
    const refused = await api.call('POST', '/exp/livelesson', { lessonSlug: 'web-services', sessionId, replaceOldest: true }, from(address));
    expect(refused.status).toBe(429);
    expect(detailOf(refused.body).reason).toBe('QUEUE_FULL');
    expect((await api.data.liveLessons.get(id)).deleteRequestedAt).toBeUndefined();
  });
});
