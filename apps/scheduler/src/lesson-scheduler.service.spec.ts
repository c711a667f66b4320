import { Logger } from '@nestjs/common';
import { EventSubjects, LiveLessonStatus } from '@antidote/contracts';
import { logStatements, type StatementLog } from '@antidote/data';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lessonHarness, type LessonHarness } from '../test/lesson-harness.js';
import type { LessonScheduler } from './lesson-scheduler.service.js';

describe('LessonScheduler', () => {
  let h: LessonHarness;
  let scheduler: LessonScheduler;
  beforeEach(async () => {
    h = await lessonHarness();
    scheduler = h.scheduler();
  });
  afterEach(async () => {
    await scheduler.onApplicationShutdown();
    await h.close();
  });

  it('creates a live lesson to READY and releases its claim', async () => {
    const lesson = await h.newLiveLesson();
    await scheduler.submit('create', lesson.id).done;
    const row = await h.data.liveLessons.get(lesson.id);
    expect(row).toMatchObject({ status: LiveLessonStatus.READY, error: false });
    expect(row.claimedBy).toBeUndefined();
  });

  it('works from the row read before its claim when nothing changed it since, and reads it again when something did', async () => {
    // Reads of the row itself (with its endpoints), not counts over the table.
    const readsOfRows = (log: StatementLog) => log.statements.filter(({ sql }) => sql.startsWith('SELECT') && sql.includes('FROM "live_lessons" WHERE')).length;
    const lesson = await h.newLiveLesson();
    const read = await h.data.liveLessons.get(lesson.id);
    const log = logStatements(h.data.dataSource);
    await scheduler.submit('create', lesson.id, undefined, undefined, read).done;
    log.stop();
    expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ status: LiveLessonStatus.READY });
    expect(readsOfRows(log)).toBe(0);

    // Read, then another replica took it to READY (its claim released): this one must not build it again from the old read.
    const other = await h.newLiveLesson();
    const stale = await h.data.liveLessons.get(other.id);
    await h.data.liveLessons.updateStatus(other.id, LiveLessonStatus.READY);
    const calls = h.cluster.calls.length;
    const again = logStatements(h.data.dataSource);
    await scheduler.submit('create', other.id, undefined, undefined, stale).done;
    again.stop();
    expect(readsOfRows(again)).toBe(1);
    expect(h.cluster.calls.slice(calls)).toEqual([]);
    expect(await h.data.liveLessons.get(other.id)).toMatchObject({ status: LiveLessonStatus.READY });
  });

  it.each([
    { keepFailedLessons: false, namespaceLeft: false },
    { keepFailedLessons: true, namespaceLeft: true },
  ])(
    'marks a failed create failed with its reason; keepFailedLessons=$keepFailedLessons decides the teardown',
    async ({ keepFailedLessons, namespaceLeft }) => {
      await h.close();
      h = await lessonHarness({ config: { scheduler: { keepFailedLessons } } });
      scheduler = h.scheduler();
      h.cluster.fail('waitForPods', new Error('linux1: ImagePullBackOff'));
      const lesson = await h.newLiveLesson();
      await scheduler.submit('create', lesson.id).done;
      expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ error: true, failureReason: 'linux1: ImagePullBackOff' });
      expect(h.cluster.namespaces.has(h.namespaceOf(lesson.id))).toBe(namespaceLeft);
      const last = h.bus.events(EventSubjects.liveLessonStatusChanged).at(-1);
      expect(last).toMatchObject({ liveLessonId: lesson.id, error: true });
    },
  );

  it('tears nothing down when the create was refused before creating anything', async () => {
    await h.close();
    h = await lessonHarness({ config: { scheduler: { maxLiveLessons: 1 } } });
    scheduler = h.scheduler();
    const other = await h.newLiveLesson();
    await h.data.liveLessons.updateStatus(other.id, LiveLessonStatus.READY);
    const lesson = await h.newLiveLesson();
    await scheduler.submit('create', lesson.id).done;
    expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ error: true });
    expect(h.cluster.calls.filter((call) => call.startsWith('deleteNamespace'))).toEqual([]);
  });

  it('leaves a live lesson another scheduler has claimed alone', async () => {
    const lesson = await h.newLiveLesson();
    expect(await h.data.work.claim(lesson.id, 'another-replica', 60_000)).toBe(true);
    await scheduler.submit('create', lesson.id).done;
    expect(h.cluster.calls).toEqual([]);
    expect((await h.data.liveLessons.get(lesson.id)).claimedBy).toBe('another-replica');
  });

  it('cancels a running create for a delete, then deletes the namespace and the record', async () => {
    const lesson = await h.newLiveLesson();
    const held = h.cluster.hold('waitForPods');
    const create = scheduler.submit('create', lesson.id);
    await held.reached;
    await h.data.liveLessons.requestDeletion(lesson.id);
    await scheduler.submit('delete', lesson.id, 'killed').done;
    await create.done;
    expect(await h.data.liveLessons.find(lesson.id)).toBeUndefined();
    expect(h.cluster.namespaces.size).toBe(0);
    expect(h.cluster.calls.some((call) => call.startsWith('configure'))).toBe(false);
    expect(h.bus.events(EventSubjects.liveLessonStatusChanged).at(-1)).toMatchObject({ liveLessonId: lesson.id, deleted: true });
  });

  it('holds at most scheduler.maxOperationsInFlight operations at once; the rest wait their turn and run', async () => {
    await h.close();
    h = await lessonHarness({ config: { scheduler: { maxOperationsInFlight: 2 } } });
    scheduler = h.scheduler();
    const lessons = [await h.newLiveLesson(), await h.newLiveLesson(), await h.newLiveLesson()];
    // Two creates stopped mid-way (one at its objects, the other at its pods): both slots held.
    const provisioning = h.cluster.hold('provision');
    const booting = h.cluster.hold('waitForPods');
    const runs = lessons.map((lesson) => scheduler.submit('create', lesson.id));
    expect(runs.map((run) => run.queued)).toEqual([true, true, true]);
    await Promise.all([provisioning.reached, booting.reached]);
    const gauge = async (metric: typeof h.metrics.inFlight) => (await metric.get()).values[0]?.value;
    expect([await gauge(h.metrics.inFlight), await gauge(h.metrics.queued)]).toEqual([2, 1]);
    expect(h.cluster.calls.filter((call) => call.startsWith('provision'))).toHaveLength(2);
    provisioning.release();
    booting.release();
    await Promise.all(runs.map((run) => run.done));
    for (const lesson of lessons) expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ status: LiveLessonStatus.READY, error: false });
    expect([await gauge(h.metrics.inFlight), await gauge(h.metrics.queued)]).toEqual([0, 0]);
  });

  it('turns a create into the delete when the row already asks for deletion', async () => {
    const lesson = await h.newLiveLesson();
    await h.data.liveLessons.requestDeletion(lesson.id);
    await scheduler.submit('create', lesson.id).done;
    expect(await h.data.liveLessons.find(lesson.id)).toBeUndefined();
    expect(h.cluster.calls.filter((call) => call.startsWith('provision'))).toEqual([]);
  });

  it('runs a stage change: configures the new stage only, then READY', async () => {
    const lesson = await h.newLiveLesson();
    await scheduler.submit('create', lesson.id).done;
    const ns = h.namespaceOf(lesson.id);
    expect(await h.data.liveLessons.changeStage(lesson.id, 1, { guideType: 'markdown', guideContents: 'second' })).toBe(true);
    await scheduler.submit('modify', lesson.id).done;
    expect(h.cluster.calls.filter((call) => call.startsWith('configure'))).toEqual([`configure ${ns} stage 0`, `configure ${ns} stage 1`]);
    expect(h.cluster.calls.filter((call) => call.startsWith('provision'))).toHaveLength(1);
    expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ status: LiveLessonStatus.READY, currentStage: 1, configuredStage: 1 });
  });

  it('ignores a redelivered stage change that asks for nothing', async () => {
    const lesson = await h.newLiveLesson();
    await scheduler.submit('create', lesson.id).done;
    const calls = h.cluster.calls.length;
    await scheduler.submit('modify', lesson.id).done;
    expect(h.cluster.calls).toHaveLength(calls);
  });

  describe('claims kept by one heartbeat (lease 0.75 s: a beat every 250 ms)', () => {
    beforeEach(async () => {
      await scheduler.onApplicationShutdown();
      await h.close();
      h = await lessonHarness({ config: { scheduler: { claimLeaseSeconds: 0.75, replicaName: 'replica-a' } } });
      scheduler = h.scheduler();
    });

    it('carries its replica name on its claims and renews them while it works', async () => {
      const lesson = await h.newLiveLesson();
      const held = h.cluster.hold('waitForPods');
      const create = scheduler.submit('create', lesson.id);
      await held.reached;
      const first = await h.data.liveLessons.get(lesson.id);
      expect(first.claimedBy).toBe('replica-a');
      await vi.waitFor(async () =>
        expect((await h.data.liveLessons.get(lesson.id)).claimedUntil!.getTime()).toBeGreaterThan(first.claimedUntil!.getTime() + 750),
      );
      held.release();
      await create.done;
      expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ status: LiveLessonStatus.READY });
    });

    it('switches to the delete when a deletion is requested elsewhere (the reaper, another api) while a create runs', async () => {
      const lesson = await h.newLiveLesson();
      const held = h.cluster.hold('waitForPods');
      const create = scheduler.submit('create', lesson.id);
      await held.reached;
      await h.data.liveLessons.requestDeletion(lesson.id);
      await create.done;
      await vi.waitFor(async () => expect(await h.data.liveLessons.find(lesson.id)).toBeUndefined());
      expect(h.cluster.namespaces.size).toBe(0);
    });

    it('stops work whose claim another replica took over, without failing the live lesson or touching the claim', async () => {
      const lesson = await h.newLiveLesson();
      const held = h.cluster.hold('waitForPods');
      const create = scheduler.submit('create', lesson.id);
      await held.reached;
      // As after a lapse (this replica stalled past its lease): the other replica holds the row now.
      await h.data.dataSource.query("UPDATE live_lessons SET claimed_by = 'replica-b', claimed_until = 99999999999999 WHERE id = ?", [lesson.id]);
      await create.done;
      expect(await h.data.liveLessons.get(lesson.id)).toMatchObject({ error: false, status: LiveLessonStatus.BOOTING, claimedBy: 'replica-b' });
      expect(h.cluster.calls.some((call) => call.startsWith('configure'))).toBe(false);
    });

    it('hands running work back at shutdown: the claim lapses at once, still in its name', async () => {
      const lesson = await h.newLiveLesson();
      const held = h.cluster.hold('waitForPods');
      const create = scheduler.submit('create', lesson.id);
      await held.reached;
      await scheduler.onApplicationShutdown();
      await create.done;
      const row = await h.data.liveLessons.get(lesson.id);
      expect(row).toMatchObject({ error: false, claimedBy: 'replica-a' });
      expect(row.claimedUntil!.getTime()).toBeLessThan(Date.now());
      expect(await h.data.work.claim(lesson.id, 'replica-b', 750)).toBe(true);
    });

    it('does not fail a live lesson for a database hiccup: the work is handed back (lapsed at once) to be driven again', async () => {
      h.cluster.fail('waitForPods', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
      const lesson = await h.newLiveLesson();
      await scheduler.submit('create', lesson.id).done;
      const row = await h.data.liveLessons.get(lesson.id);
      expect(row).toMatchObject({ error: false, claimedBy: 'replica-a' });
      expect(row.claimedUntil!.getTime()).toBeLessThan(Date.now());
      expect((await h.data.work.findNeedingWork({ owner: 'replica-b', limit: 10 })).map((found) => found.id)).toEqual([lesson.id]);
    });

    it('logs every re-drive with the live lesson, the reason and its new owner', async () => {
      const log = vi.spyOn(Logger.prototype, 'log');
      const lesson = await h.newLiveLesson();
      await scheduler.submit('create', lesson.id, 're-driven', 'the claim of replica-z lapsed').done;
      expect(log.mock.calls.map(([message]) => String(message))).toContain(
        `re-drive of live lesson ${lesson.id}: create (the claim of replica-z lapsed), now owned by replica-a`,
      );
      log.mockRestore();
    });
  });
});
