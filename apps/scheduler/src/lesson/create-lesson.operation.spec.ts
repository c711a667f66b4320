import { EventSubjects, LiveLessonStatus } from '@antidote/contracts';
import { makeCurriculum } from '@antidote/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lessonHarness, twoHostLesson, unreachable, type LessonHarness } from '../../test/lesson-harness.js';
import { LessonFailure } from './lesson-failure.error.js';

const { INITIALIZED, BOOTING, CONFIGURATION, READY } = LiveLessonStatus;

describe('CreateLessonOperation', () => {
  let h: LessonHarness;
  beforeEach(async () => {
    h = await lessonHarness();
  });
  afterEach(() => h.close());

  const statuses = (id: string) =>
    h.bus
      .events(EventSubjects.liveLessonStatusChanged)
      .filter((event) => event.liveLessonId === id)
      .map((event) => event.status);
  const run = (id: string, signal = new AbortController().signal) =>
    h.data.liveLessons.get(id).then((lesson) => h.creates.run(lesson, signal, (plan) => h.cluster.calls.push(`plan ${plan.namespace}`)));

  it('plans, provisions, waits for the pods, then reachability, then configures, and ends READY', async () => {
    const lesson = await h.newLiveLesson();
    const ns = h.namespaceOf(lesson.id);
    await run(lesson.id);
    expect(h.cluster.calls).toEqual([`plan ${ns}`, `provision ${ns}`, `waitForPods ${ns}`, 'waitReachable', `configure ${ns} stage 0`]);
    expect(statuses(lesson.id)).toEqual([BOOTING, CONFIGURATION, READY]);
    const ready = await h.data.liveLessons.get(lesson.id);
    expect(ready).toMatchObject({ status: READY, configuredStage: 0, error: false });
    expect(ready.endpoints.map((endpoint) => endpoint.host)).toEqual([`linux1.${ns}.svc`, `linux2.${ns}.svc`]);
  });

  it.each([
    { from: INITIALIZED, events: [BOOTING, CONFIGURATION, READY] },
    { from: BOOTING, events: [CONFIGURATION, READY] },
    { from: CONFIGURATION, events: [READY] },
  ])('resumed from $from it adopts what exists and never moves status backwards', async ({ from, events }) => {
    const lesson = await h.newLiveLesson();
    if (from !== INITIALIZED) await h.data.liveLessons.updateStatus(lesson.id, from);
    await run(lesson.id);
    expect(statuses(lesson.id)).toEqual(events);
    expect(h.cluster.namespaces.size).toBe(1);
    // The endpoints' addresses are on the row whichever step it resumed from (with BOOTING, or alone past it).
    const ns = h.namespaceOf(lesson.id);
    expect((await h.data.liveLessons.get(lesson.id)).endpoints.map((endpoint) => endpoint.host)).toEqual([`linux1.${ns}.svc`, `linux2.${ns}.svc`]);
    await run(lesson.id);
    expect(statuses(lesson.id)).toEqual(events);
    expect((await h.data.liveLessons.get(lesson.id)).status).toBe(READY);
  });

  it.each([
    { step: 'provision' as const, status: INITIALIZED },
    { step: 'waitForPods' as const, status: BOOTING },
    { step: 'configure' as const, status: CONFIGURATION },
  ])('stops at the first failing step ($step) and leaves the status where it got to', async ({ step, status }) => {
    const lesson = await h.newLiveLesson();
    const failure = new Error(`${step} broke`);
    h.cluster.fail(step, failure);
    await expect(run(lesson.id)).rejects.toBe(failure);
    expect((await h.data.liveLessons.get(lesson.id)).status).toBe(status);
    expect(h.cluster.calls.at(-1)).toMatch(new RegExp(`^${step} `));
  });

  it('fails with the unreachable endpoints and their pod logs', async () => {
    h.reachable(() => unreachable(['linux2']));
    h.cluster.podLogText = 'sshd: no hostkeys available';
    const lesson = await h.newLiveLesson();
    const error = await run(lesson.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LessonFailure);
    expect((error as LessonFailure).reason).toMatch(/linux2[\s\S]*sshd: no hostkeys available/);
    expect(h.cluster.calls).toContain(`podLogs ${h.namespaceOf(lesson.id)} linux2`);
    expect(h.cluster.calls.some((call) => call.startsWith('configure'))).toBe(false);
  });

  it('still names the unreachable endpoints when their logs cannot be read', async () => {
    h.reachable(() => unreachable(['linux1']));
    h.cluster.fail('podLogs', new Error('API down'));
    const lesson = await h.newLiveLesson();
    await expect(run(lesson.id)).rejects.toThrow(/linux1/);
  });

  it('refuses at capacity before creating anything (nothing to clean)', async () => {
    await h.close();
    h = await lessonHarness({ config: { scheduler: { maxLiveLessons: 1 } } });
    const running = await h.newLiveLesson();
    await h.data.liveLessons.updateStatus(running.id, BOOTING);
    const lesson = await h.newLiveLesson();
    const error = await run(lesson.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LessonFailure);
    expect((error as LessonFailure).nothingToClean).toBe(true);
    expect(h.cluster.calls).toEqual([]);
  });

  it('leaves a lab waiting in line INITIALIZED, creating nothing; builds it once a freed slot admits it', async () => {
    await h.close();
    h = await lessonHarness({ config: { scheduler: { maxLiveLessons: 1 } } });
    const queue = async (id: string) => {
      const lesson = await h.data.liveLessons.get(id);
      return h.data.admission.enqueue(
        { liveLessonId: id, sessionId: lesson.sessionId, client: '127.0.0.9', lessonSlug: lesson.lessonSlug },
        { cap: 1, maxQueued: 10 },
      );
    };
    const first = await h.newLiveLesson();
    expect(await queue(first.id)).toEqual({ kind: 'admitted' });
    const second = await h.newLiveLesson();
    expect(await queue(second.id)).toEqual({ kind: 'waiting', position: 1 });
    await run(first.id);
    await run(second.id);
    expect(await h.data.liveLessons.get(second.id)).toMatchObject({ status: INITIALIZED, error: false });
    expect(h.cluster.calls.filter((call) => call.includes(second.id))).toEqual([]);
    await h.data.liveLessons.delete(first.id);
    await run(second.id);
    expect(await h.data.liveLessons.get(second.id)).toMatchObject({ status: READY, error: false });
    expect(statuses(second.id)).toEqual([BOOTING, CONFIGURATION, READY]);
  });

  it('leaves a waiting lab waiting, not failed, when the admission pass fails (the database busy or away)', async () => {
    await h.close();
    h = await lessonHarness({ config: { scheduler: { maxLiveLessons: 1 } } });
    const first = await h.newLiveLesson();
    const second = await h.newLiveLesson();
    for (const lesson of [first, second])
      await h.data.admission.enqueue(
        { liveLessonId: lesson.id, sessionId: lesson.sessionId, client: '127.0.0.9', lessonSlug: lesson.lessonSlug },
        { cap: 1, maxQueued: 10 },
      );
    await h.data.liveLessons.delete(first.id);
    h.data.admission.drain = () => Promise.reject(new Error('connection terminated'));
    await run(second.id);
    expect(await h.data.liveLessons.get(second.id)).toMatchObject({ status: INITIALIZED, error: false });
    expect(h.cluster.calls).toEqual([]);
  });

  it('fails clearly when the lesson left the curriculum', async () => {
    const lesson = await h.newLiveLesson();
    await h.data.curriculum.replaceCurriculum(makeCurriculum({ lessons: [twoHostLesson({ slug: 'another-lesson' })] }));
    await h.curriculum.refresh();
    await expect(run(lesson.id)).rejects.toThrow(/not in the curriculum any more/);
    expect(h.cluster.calls).toEqual([]);
  });

  it('stops where it is when aborted, and configures nothing', async () => {
    const lesson = await h.newLiveLesson();
    const held = h.cluster.hold('waitForPods');
    const controller = new AbortController();
    const running = run(lesson.id, controller.signal);
    await held.reached;
    controller.abort(new Error('deleted meanwhile'));
    await expect(running).rejects.toThrow('deleted meanwhile');
    expect(h.cluster.calls.some((call) => call.startsWith('configure'))).toBe(false);
    expect((await h.data.liveLessons.get(lesson.id)).status).toBe(BOOTING);
  });
});
