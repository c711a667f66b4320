import { EventSubjects, LiveLessonStatus } from '@antidote/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lessonHarness, type LessonHarness } from '../../test/lesson-harness.js';

const { INITIALIZED, BOOTING, CONFIGURATION, READY } = LiveLessonStatus;

describe('StatusReporter', () => {
  let h: LessonHarness;
  beforeEach(async () => {
    h = await lessonHarness();
  });
  afterEach(() => h.close());

  const published = () => h.bus.events(EventSubjects.liveLessonStatusChanged);

  it.each([
    { from: INITIALIZED, to: BOOTING, moves: true },
    { from: INITIALIZED, to: READY, moves: true },
    { from: BOOTING, to: CONFIGURATION, moves: true },
    { from: BOOTING, to: BOOTING, moves: false },
    { from: CONFIGURATION, to: BOOTING, moves: false },
    { from: READY, to: CONFIGURATION, moves: false },
  ])('advance $from → $to: written and published = $moves', async ({ from, to, moves }) => {
    const lesson = await h.newLiveLesson();
    if (from !== INITIALIZED) await h.data.liveLessons.updateStatus(lesson.id, from);
    const before = published().length;
    const after = await h.status.advance(await h.data.liveLessons.get(lesson.id), to);
    expect(after.status).toBe(moves ? to : from);
    expect((await h.data.liveLessons.get(lesson.id)).status).toBe(moves ? to : from);
    expect(
      published()
        .slice(before)
        .map((event) => event.status),
    ).toEqual(moves ? [to] : []);
  });

  it('records the time to READY once a live lesson gets there', async () => {
    const lesson = await h.newLiveLesson();
    await h.status.advance(lesson, READY);
    const metric = (await h.metrics.timeToReady.get()).values.find((value) => value.metricName === 'antidote_time_to_ready_seconds_count');
    expect(metric).toMatchObject({ value: 1, labels: { lesson: lesson.lessonSlug } });
  });

  it('marks a failure in the database, counts it by status and publishes it', async () => {
    const lesson = await h.newLiveLesson();
    await h.data.liveLessons.updateStatus(lesson.id, BOOTING);
    await h.status.fail(lesson.id, 'linux1: ImagePullBackOff');
    expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ error: true, failureReason: 'linux1: ImagePullBackOff', status: BOOTING });
    expect((await h.metrics.failures.get()).values).toContainEqual(expect.objectContaining({ value: 1, labels: { status: BOOTING } }));
    expect(published().at(-1)).toMatchObject({ liveLessonId: lesson.id, error: true });
  });

  it('publishes a deletion', async () => {
    const lesson = await h.newLiveLesson();
    h.status.deleted(lesson);
    expect(published().at(-1)).toMatchObject({ liveLessonId: lesson.id, deleted: true });
  });

  it("keeps the database change when the event cannot be published (NATS down), and publishes the row's latest state once NATS is back", async () => {
    const lesson = await h.newLiveLesson();
    const gone = await h.newLiveLesson();
    const before = published().length;
    h.bus.disconnect();
    await expect(h.status.advance(lesson, BOOTING)).resolves.toMatchObject({ status: BOOTING });
    await h.status.advance(lesson, CONFIGURATION);
    expect((await h.data.liveLessons.get(lesson.id)).status).toBe(CONFIGURATION);
    h.status.deleted(gone);
    await h.data.liveLessons.delete(gone.id);
    // Written while the bus is down, never published by the reporter itself: the reconnect sends the row as it is then.
    await h.data.liveLessons.updateStatus(lesson.id, READY);
    expect(published()).toHaveLength(before);
    h.bus.reconnect();
    await vi.waitFor(() => expect(published()).toHaveLength(before + 2));
    expect(published().slice(before)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ liveLessonId: lesson.id, status: READY, error: false }),
        expect.objectContaining({ liveLessonId: gone.id, deleted: true }),
      ]),
    );
    // Once sent, not again.
    expect(await h.status.republish()).toBe(0);
  });
});
