import { EventSubjects } from '@antidote/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../../test/api-fixture.js';
import { readEvents, type SseEvent } from '../../test/sse.js';

/** Resolves once `predicate` holds for what `events` has collected (checked as each event comes). */
function until(events: SseEvent[], onEvent: { current: () => void }, predicate: (events: SseEvent[]) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => (predicate(events) ? resolve() : undefined);
    onEvent.current = check;
    check();
  });
}

describe("health progress on a live lesson's event stream (real nats-server, published with the healthchecker's login)", () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi('sqlite', { api: { rateLimitPerMinute: 0 } });
  });
  afterAll(() => api?.stop());

  const newLesson = async (slug: string): Promise<{ id: string; endpoint: string }> => {
    const sessionId = ((await api.call('POST', '/exp/livesession', {}, { 'x-forwarded-for': `198.51.100.${slug.length}` })).body as { ID: string }).ID;
    const { id } = (await api.call('POST', '/exp/livelesson', { lessonSlug: slug, sessionId, lessonStage: 0 })).body as { id: string };
    // As the healthchecker leaves the row while it waits: being brought up, 1 of 2 endpoints healthy.
    await api.data.liveLessons.updateStatus(id, 'BOOTING');
    await api.data.liveLessons.updateTests(id, 1, 2);
    return { id, endpoint: (await api.data.liveLessons.get(id)).endpoints[0].name };
  };
  const progress = (liveLessonId: string, endpoint: string, extra: Record<string, unknown> = {}) => ({
    liveLessonId,
    endpoint,
    healthy: 1,
    total: 2,
    at: new Date().toISOString(),
    ...extra,
  });

  it('drops malformed events and events its row does not confirm; forwards each valid one only to the stream of the live lesson it names', async () => {
    const mine = await newLesson('network-automation');
    const other = await newLesson('linux-basics');

    // The other live lesson's stream, held open for the whole test.
    const otherEvents: SseEvent[] = [];
    const otherOnEvent = { current: (): void => undefined };
    const otherDone = readEvents(
      `${api.url}/exp/livelesson/${other.id}/events`,
      () => undefined,
      (event) => (otherEvents.push(event), otherOnEvent.current()),
      { 'x-forwarded-for': '198.51.100.20' },
    );
    await until(otherEvents, otherOnEvent, (events) => events.length >= 1);

    const steps: (() => Promise<void>)[] = [
      // On the first event (the current state): every bad event, then the other lesson's, then one true one, in this order on one connection.
      async () => {
        const bad: unknown[] = [
          '{not json',
          { ...progress(mine.id, mine.endpoint), injected: '<script>alert(1)</script>' },
          progress(mine.id, mine.endpoint, { healthy: 3, total: 2 }),
          progress(mine.id, mine.endpoint, { healthy: -1 }),
          progress(mine.id, mine.endpoint, { at: 'forged: not a time' }),
          progress(mine.id, 'x'.repeat(300)),
          progress('../../etc', mine.endpoint),
          // Valid by the contract, but not this row's: an endpoint it does not have, another total, more healthy than recorded.
          progress(mine.id, 'forged-endpoint'),
          progress(mine.id, mine.endpoint, { total: 7 }),
          progress(mine.id, mine.endpoint, { healthy: 2 }),
        ];
        for (const payload of bad) await api.publishAsHealthchecker(EventSubjects.healthProgressed, payload);
        await api.publishAsHealthchecker(EventSubjects.healthProgressed, progress(other.id, other.endpoint));
        await api.publishAsHealthchecker(EventSubjects.healthProgressed, progress(mine.id, mine.endpoint));
      },
      // On the true progress: the lab is READY, which ends the stream.
      async () => {
        await api.data.liveLessons.updateStatus(mine.id, 'READY');
        api.publishStatus({ liveLessonId: mine.id, status: 'READY', totalTests: 2, healthyTests: 1 });
      },
    ];
    const events = await readEvents(
      `${api.url}/exp/livelesson/${mine.id}/events`,
      () => undefined,
      () => void steps.shift()?.(),
      { 'x-forwarded-for': '198.51.100.21' },
    );
    expect(events.map((event) => event.event)).toEqual(['status', 'progress', 'status']);
    expect(events[1].data).toEqual(progress(mine.id, mine.endpoint, { at: (events[1].data as { at: string }).at }));
    expect(JSON.stringify(events)).not.toMatch(/script|forged|etc|xxxx/);
    expect(JSON.stringify(events)).not.toContain(other.id);

    // The other lesson's stream got its own event, and none of this one's.
    await until(otherEvents, otherOnEvent, (seen) => seen.some((event) => event.event === 'progress'));
    await api.data.liveLessons.updateStatus(other.id, 'READY');
    api.publishStatus({ liveLessonId: other.id, status: 'READY', totalTests: 2, healthyTests: 1 });
    await otherDone;
    expect(otherEvents.map((event) => event.event)).toEqual(['status', 'progress', 'status']);
    expect(otherEvents[1].data).toMatchObject({ liveLessonId: other.id, endpoint: other.endpoint });
    expect(JSON.stringify(otherEvents)).not.toContain(mine.id);
  }, 120_000);
});
