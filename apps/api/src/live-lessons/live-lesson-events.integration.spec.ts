import { EventSubjects, RequestSubjects } from '@antidote/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../../test/api-fixture.js';
import { readEvents, type SseEvent } from '../../test/sse.js';

type StreamData = SseEvent['data'] & Record<string, unknown>;

/** Streams a test opened: a failed test leaves none open (the api's shutdown would wait for them). */
const open = new Set<AbortController>();
afterEach(() => {
  for (const controller of open) controller.abort();
  open.clear();
});

/** Follows a live lesson's event stream: `events` fills as they come, `ended` settles when the api closes it. */
function follow(api: ApiFixture, id: string, ip: string) {
  const events: StreamData[] = [];
  const controller = new AbortController();
  open.add(controller);
  const ended = readEvents(
    `${api.url}/exp/livelesson/${id}/events`,
    () => undefined,
    (event) => void events.push({ ...event.data, event: event.event }),
    { 'x-forwarded-for': ip },
    controller.signal,
  );
  // Aborted by afterEach when a test failed: that rejection is not the test's failure.
  ended.catch(() => undefined);
  return { events, ended };
}

async function newLesson(api: ApiFixture, slug: string, ip: string): Promise<string> {
  const sessionId = ((await api.call('POST', '/exp/livesession', {}, { 'x-forwarded-for': ip })).body as { ID: string }).ID;
  const answer = await api.call('POST', '/exp/livelesson', { lessonSlug: slug, sessionId, lessonStage: 0 }, { 'x-forwarded-for': ip });
  expect(answer.status).toBe(200);
  return (answer.body as { id: string }).id;
}

describe("what a live lesson's event stream says is its row's, whatever a message says (real nats-server, scheduler and healthchecker logins)", () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi('sqlite', { api: { rateLimitPerMinute: 0, eventResyncSeconds: 1 } });
  });
  afterAll(() => api?.stop());

  it("a forged status event puts none of its text on the stream, its `at` included; a forged deletion carries the stream's last row state", async () => {
    const id = await newLesson(api, 'web-services', '198.51.100.31');
    const stream = follow(api, id, '198.51.100.31');
    await expect.poll(() => stream.events.length).toBe(1);
    const booting = await api.data.liveLessons.updateStatus(id, 'BOOTING');
    api.publishStatus({ liveLessonId: id, status: 'BOOTING', at: 'forged: your lab expires, log in at evil.example', lessonSlug: 'forged-slug' });
    await expect.poll(() => stream.events.length).toBe(2);
    expect(stream.events[1]).toMatchObject({ status: 'BOOTING', at: booting.updatedAt.toISOString() });

    await api.data.liveLessons.delete(id);
    api.publishStatus({
      liveLessonId: id,
      status: 'READY',
      deleted: true,
      error: true,
      failureReason: 'forged: call 555-0100',
      stage: 7,
      healthyTests: 42,
      totalTests: 42,
      at: 'forged-at',
    });
    await stream.ended;
    expect(stream.events.at(-1)).toMatchObject({ event: 'status', status: 'BOOTING', error: false, stage: 0, healthyTests: 0, deleted: true });
    expect(JSON.stringify(stream.events)).not.toMatch(/forged|"healthyTests":42|"totalTests":42|"stage":7/);
  });

  it("health progress reaches the stream only for an endpoint its row has, with the row's counts and time", async () => {
    const mine = await newLesson(api, 'network-automation', '198.51.100.32');
    const other = await newLesson(api, 'web-services', '198.51.100.33');
    await api.data.liveLessons.updateStatus(mine, 'BOOTING');
    const row = await api.data.liveLessons.updateTests(mine, 1, 3).then(() => api.data.liveLessons.findState(mine));
    const progress = (endpoint: string, extra: Record<string, unknown> = {}) => ({
      liveLessonId: mine,
      endpoint,
      healthy: 1,
      total: 3,
      at: '2001-02-03T04:05:06Z',
      ...extra,
    });
    const stream = follow(api, mine, '198.51.100.32');
    await expect.poll(() => stream.events.length).toBe(1);
    // Another lab's endpoint, and the right name in another case: neither is this row's.
    const otherEndpoint = (await api.data.liveLessons.get(other)).endpoints[0].name;
    expect(otherEndpoint).toBe('web1');
    for (const forged of [progress(otherEndpoint), progress('VQFX1'), progress('vqfx1 ')])
      await api.publishAsHealthchecker(EventSubjects.healthProgressed, forged);
    await api.publishAsHealthchecker(EventSubjects.healthProgressed, progress('vqfx1', { healthy: 0 }));
    await expect.poll(() => stream.events.length).toBe(2);
    await api.data.liveLessons.updateStatus(mine, 'READY');
    api.publishStatus({ liveLessonId: mine, status: 'READY', healthyTests: 1, totalTests: 3 });
    await stream.ended;
    expect(stream.events.map((event) => event.event)).toEqual(['status', 'progress', 'status']);
    expect(stream.events[1]).toEqual({ event: 'progress', liveLessonId: mine, endpoint: 'vqfx1', healthy: 1, total: 3, at: row!.updatedAt.toISOString() });
    expect(JSON.stringify(stream.events)).not.toMatch(/2001-02-03|VQFX1|vqfx1 /);
    expect(JSON.stringify(stream.events)).not.toContain(`"${otherEndpoint}"`);
  });

  it('a change whose event never came (lost with NATS) reaches the stream at the next re-read of its row (api.eventResyncSeconds)', async () => {
    const id = await newLesson(api, 'linux-basics', '198.51.100.34');
    const stream = follow(api, id, '198.51.100.34');
    await expect.poll(() => stream.events.length).toBe(1);
    await api.data.liveLessons.updateStatus(id, 'READY');
    await stream.ended;
    expect(stream.events.map((event) => event.status)).toEqual(['INITIALIZED', 'READY']);
  });
});

describe('after a NATS outage (re-reads every 600 s: only the reconnect can bring a stream up to date)', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi('sqlite', { api: { rateLimitPerMinute: 0, eventResyncSeconds: 600 } });
  });
  afterAll(() => api?.stop());

  it("every open stream ends in its row's state, and a request accepted meanwhile reaches a scheduler, once the api is connected again", async () => {
    const ready = await newLesson(api, 'linux-basics', '198.51.100.41');
    const failed = await newLesson(api, 'web-services', '198.51.100.42');
    const deleted = await newLesson(api, 'network-automation', '198.51.100.43');
    const streams = [follow(api, ready, '198.51.100.41'), follow(api, failed, '198.51.100.42'), follow(api, deleted, '198.51.100.43')];
    await expect.poll(() => streams.every((stream) => stream.events.length === 1)).toBe(true);
    let accepted = '';
    await api.natsServer.restart(async () => {
      await expect.poll(async () => ((await api.call('GET', '/readyz')).body as { checks: { nats: boolean } }).checks.nats).toBe(false);
      // What the scheduler wrote while its events could not reach the api.
      await api.data.liveLessons.updateStatus(ready, 'READY');
      await api.data.liveLessons.markFailed(failed, 'pods failed: ErrImagePull');
      await api.data.liveLessons.delete(deleted);
      // A learner's request while no scheduler can be told: accepted all the same.
      accepted = await newLesson(api, 'jupyter-intro', '198.51.100.44');
    });
    await Promise.all(streams.map((stream) => stream.ended));
    expect(streams.map((stream) => stream.events.at(-1))).toEqual([
      expect.objectContaining({ status: 'READY', error: false }),
      expect.objectContaining({ error: true, failureReason: 'pods failed: ErrImagePull' }),
      expect.objectContaining({ status: 'INITIALIZED', deleted: true }),
    ]);
    await expect.poll(() => api.received[RequestSubjects.liveLessonCreate] ?? []).toContainEqual({ liveLessonId: accepted });
  });

  it('tells a scheduler again about a lab asked for again before any scheduler took it up (its api may have died before telling one)', async () => {
    const ip = '198.51.100.45';
    const sessionId = ((await api.call('POST', '/exp/livesession', {}, { 'x-forwarded-for': ip })).body as { ID: string }).ID;
    const ask = async () =>
      ((await api.call('POST', '/exp/livelesson', { lessonSlug: 'linux-basics', sessionId, lessonStage: 0 }, { 'x-forwarded-for': ip })).body as { id: string })
        .id;
    const id = await ask();
    const told = () =>
      (api.received[RequestSubjects.liveLessonCreate] ?? []).filter((request) => (request as { liveLessonId: string }).liveLessonId === id).length;
    await expect.poll(told).toBe(1);
    expect(await ask()).toBe(id);
    await expect.poll(told).toBe(2);
    // Once a scheduler has it, asking again only keeps it alive.
    await api.data.work.claim(id, 'scheduler-0', 60_000);
    expect(await ask()).toBe(id);
    expect(told()).toBe(2);
  });
});
