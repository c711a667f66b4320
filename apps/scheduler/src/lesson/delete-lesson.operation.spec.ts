import { EventSubjects } from '@antidote/contracts';
import { NotFoundError, type LiveLesson } from '@antidote/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lessonHarness, type LessonHarness } from '../../test/lesson-harness.js';

describe('DeleteLessonOperation', () => {
  let h: LessonHarness;
  beforeEach(async () => {
    h = await lessonHarness();
  });
  afterEach(() => h.close());

  /** A READY live lesson with its namespace. */
  const ready = async (): Promise<LiveLesson> => {
    const lesson = await h.newLiveLesson();
    await h.creates.run(lesson, new AbortController().signal, () => undefined);
    h.cluster.calls.length = 0;
    h.bus.published.length = 0;
    return h.data.liveLessons.get(lesson.id);
  };
  const deletedEvents = () => h.bus.events(EventSubjects.liveLessonStatusChanged).filter((event) => event.deleted);

  describe('run', () => {
    it('records the deletion first, deletes the namespace, then the record, and says so', async () => {
      const lesson = await ready();
      const ns = h.namespaceOf(lesson.id);
      const hold = h.cluster.hold('deleteNamespace');
      const running = h.deletes.run(lesson, new AbortController().signal, 'killed');
      await hold.reached;
      expect((await h.data.liveLessons.get(lesson.id)).deleteRequestedAt).toBeDefined();
      hold.release();
      await running;
      expect(h.cluster.calls).toEqual([`deleteNamespace ${ns}`]);
      expect(h.cluster.namespaces.has(ns)).toBe(false);
      expect(await h.data.liveLessons.find(lesson.id)).toBeUndefined();
      expect(deletedEvents()).toEqual([expect.objectContaining({ liveLessonId: lesson.id, deleted: true })]);
    });

    it('deletes a live lesson whose namespace never existed (INITIALIZED)', async () => {
      const lesson = await h.newLiveLesson();
      await h.deletes.run(lesson, new AbortController().signal);
      expect(await h.data.liveLessons.find(lesson.id)).toBeUndefined();
    });

    it('keeps the record, marked for deletion, when the namespace does not go (re-driven later)', async () => {
      const lesson = await ready();
      const failure = new Error('namespace still Terminating after 120 s');
      h.cluster.fail('deleteNamespace', failure);
      await expect(h.deletes.run(lesson, new AbortController().signal)).rejects.toBe(failure);
      expect((await h.data.liveLessons.get(lesson.id)).deleteRequestedAt).toBeDefined();
      expect(deletedEvents()).toEqual([]);
    });

    it('fails with NotFoundError, and touches no namespace, when the record is gone', async () => {
      const lesson = await ready();
      await h.data.liveLessons.delete(lesson.id);
      await expect(h.deletes.run(lesson, new AbortController().signal)).rejects.toBeInstanceOf(NotFoundError);
      expect(h.cluster.calls).toEqual([]);
      expect(h.cluster.namespaces.has(h.namespaceOf(lesson.id))).toBe(true);
    });

    it('is idempotent: a second delete of a deleted lesson is refused as not found, nothing else happens', async () => {
      const lesson = await ready();
      await h.deletes.run(lesson, new AbortController().signal);
      await expect(h.deletes.run(lesson, new AbortController().signal)).rejects.toBeInstanceOf(NotFoundError);
      expect(deletedEvents()).toHaveLength(1);
    });

    it('stops when aborted mid-way: the abort reason, the record kept and marked, no event', async () => {
      const lesson = await ready();
      const abort = new AbortController();
      const hold = h.cluster.hold('deleteNamespace');
      const running = h.deletes.run(lesson, abort.signal);
      await hold.reached;
      const reason = new Error('shutting down');
      abort.abort(reason);
      await expect(running).rejects.toBe(reason);
      expect((await h.data.liveLessons.get(lesson.id)).deleteRequestedAt).toBeDefined();
      expect(h.cluster.namespaces.has(h.namespaceOf(lesson.id))).toBe(true);
      expect(deletedEvents()).toEqual([]);
    });
  });

  describe('cleanUpFailed', () => {
    it('tears down the namespace and keeps the record with its reason', async () => {
      const lesson = await ready();
      await h.data.liveLessons.markFailed(lesson.id, 'pods never came up');
      await h.deletes.cleanUpFailed(lesson, new AbortController().signal);
      expect(h.cluster.namespaces.has(h.namespaceOf(lesson.id))).toBe(false);
      expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ error: true, failureReason: 'pods never came up' });
      expect(deletedEvents()).toEqual([]);
    });

    it('lets the cluster error and the abort through, keeping the record', async () => {
      const lesson = await ready();
      const failure = new Error('403 Forbidden');
      h.cluster.fail('deleteNamespace', failure);
      await expect(h.deletes.cleanUpFailed(lesson, new AbortController().signal)).rejects.toBe(failure);
      h.cluster.succeed('deleteNamespace');
      const abort = new AbortController();
      abort.abort(new Error('cancelled'));
      await expect(h.deletes.cleanUpFailed(lesson, abort.signal)).rejects.toThrow('cancelled');
      expect(h.cluster.namespaces.has(h.namespaceOf(lesson.id))).toBe(true);
      expect(await h.data.liveLessons.find(lesson.id)).toBeDefined();
    });
  });
});
