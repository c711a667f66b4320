import { EventSubjects, LiveLessonStatus } from '@antidote/contracts';
import type { LiveLesson } from '@antidote/data';
import { makeCurriculum, makeImage } from '@antidote/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lessonHarness, twoHostLesson, type LessonHarness } from '../../test/lesson-harness.js';
import { LessonFailure } from './lesson-failure.error.js';
import { ModifyLessonOperation } from './modify-lesson.operation.js';

const { INITIALIZED, BOOTING, CONFIGURATION, READY } = LiveLessonStatus;
const guide = { guideType: 'markdown' as const, guideContents: 'second' };

describe('ModifyLessonOperation (stage change)', () => {
  let h: LessonHarness;
  beforeEach(async () => {
    h = await lessonHarness();
  });
  afterEach(() => h.close());

  /** A READY live lesson at stage 0, then the api's stage change to `stage` (CONFIGURATION). */
  const changed = async (stage = 1): Promise<LiveLesson> => {
    const lesson = await h.newLiveLesson();
    await h.creates.run(lesson, new AbortController().signal, () => undefined);
    expect(await h.data.liveLessons.changeStage(lesson.id, stage, guide)).toBe(true);
    h.cluster.calls.length = 0;
    h.bus.published.length = 0;
    return h.data.liveLessons.get(lesson.id);
  };
  const run = (lesson: LiveLesson, signal = new AbortController().signal) =>
    h.modifies.run(lesson, signal, (plan) => h.cluster.calls.push(`plan ${plan.namespace}`));
  const statuses = () => h.bus.events(EventSubjects.liveLessonStatusChanged).map((event) => event.status);

  it("replaces the configuration with the new stage's, records it, then READY (no pod recreated)", async () => {
    const lesson = await changed();
    const ns = h.namespaceOf(lesson.id);
    await run(lesson);
    expect(h.cluster.calls).toEqual([`plan ${ns}`, `configure ${ns} stage 1`]);
    expect(h.cluster.configured.get(ns)).toBe(1);
    expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ status: READY, currentStage: 1, configuredStage: 1 });
    expect(statuses()).toEqual([READY]);
  });

  it('leaves READY to the newer stage change that landed while this one configured', async () => {
    const lesson = await changed();
    const hold = h.cluster.hold('configure');
    const running = run(lesson);
    await hold.reached;
    // The api accepts a change only from READY; here the row moves on as a second change would leave it.
    await h.data.liveLessons.updateStatus(lesson.id, READY);
    expect(await h.data.liveLessons.changeStage(lesson.id, 2, guide)).toBe(true);
    hold.release();
    await running;
    expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ status: CONFIGURATION, currentStage: 2, configuredStage: 1 });
    expect(statuses()).toEqual([]);
    expect(ModifyLessonOperation.isPending(await h.data.liveLessons.get(lesson.id))).toBe(true);
  });

  it("fails with the cluster's error and leaves the row asking for the change (re-driven later)", async () => {
    const lesson = await changed();
    const failure = new Error('configuration job failed');
    h.cluster.fail('configure', failure);
    await expect(run(lesson)).rejects.toBe(failure);
    const row = await h.data.liveLessons.get(lesson.id);
    expect(row).toMatchObject({ status: CONFIGURATION, currentStage: 1, configuredStage: 0 });
    expect(ModifyLessonOperation.isPending(row)).toBe(true);
    expect(statuses()).toEqual([]);
  });

  it.each([
    ['its lesson left the curriculum', [], [makeImage()], /Lesson .* is not in the curriculum any more/],
    ['an image it uses left the curriculum', [twoHostLesson()], [], /Image utility of endpoint linux1 is not in the curriculum/],
  ])('fails with a LessonFailure, before touching the cluster, when %s', async (_case, lessons, images, reason) => {
    const lesson = await changed();
    await h.data.curriculum.replaceCurriculum(makeCurriculum({ lessons, images }));
    await h.curriculum.refresh();
    const error = await run(lesson).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LessonFailure);
    expect((error as LessonFailure).reason).toMatch(reason);
    expect(h.cluster.calls).toEqual([]);
    expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ status: CONFIGURATION, configuredStage: 0 });
  });

  it('stops when aborted mid-way: the abort reason, nothing recorded, no READY', async () => {
    const lesson = await changed();
    const abort = new AbortController();
    const hold = h.cluster.hold('configure');
    const running = run(lesson, abort.signal);
    await hold.reached;
    const reason = new Error('cancelled by a delete');
    abort.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ status: CONFIGURATION, configuredStage: 0 });
    expect(statuses()).toEqual([]);
  });

  it('does not start when already aborted', async () => {
    const lesson = await changed();
    const abort = new AbortController();
    abort.abort(new Error('shutting down'));
    await expect(run(lesson, abort.signal)).rejects.toThrow('shutting down');
    expect(h.cluster.configured.get(h.namespaceOf(lesson.id))).toBe(0);
  });

  describe('isPending', () => {
    const row = (status: LiveLessonStatus, currentStage: number, configuredStage?: number) => ({ status, currentStage, configuredStage }) as LiveLesson;
    it.each([
      [CONFIGURATION, 1, 0, true],
      [CONFIGURATION, 1, 1, false],
      [CONFIGURATION, 1, undefined, false],
      [READY, 1, 0, false],
      [BOOTING, 1, 0, false],
      [INITIALIZED, 1, 0, false],
    ])('%s, stage %i, configured %s → %s', (status, current, configured, pending) => {
      expect(ModifyLessonOperation.isPending(row(status, current, configured))).toBe(pending);
    });
  });
});
