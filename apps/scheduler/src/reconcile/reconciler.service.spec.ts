import { LiveLessonStatus } from '@antidote/contracts';
import { ReadinessRegistry } from '@antidote/runtime';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lessonHarness, type LessonHarness } from '../../test/lesson-harness.js';
import type { OperationKind } from '../work/lesson-work-queue.js';
import { Reconciler } from './reconciler.service.js';

const HOUR = 3_600_000;

/** Start-up decisions over a FakeLessonCluster and an in-memory database whose rows are an hour old. */
describe('Reconciler', () => {
  let h: LessonHarness;
  let submitted: { kind: OperationKind; id: string; why?: string }[];
  let reconciler: Reconciler;
  const owner = 'this-replica';

  beforeEach(async () => {
    h = await lessonHarness({ clockOffsetMs: -HOUR });
    submitted = [];
    const scheduler = {
      owner,
      submit: (kind: OperationKind, id: string, _reason?: string, why?: string) => (
        submitted.push({ kind, id, why }),
        { queued: true, done: Promise.resolve() }
      ),
      pending: () => [],
    };
    const readiness = new ReadinessRegistry();
    readiness.markStarted();
    reconciler = new Reconciler(h.data, h.cluster, scheduler, h.status, readiness, h.config, h.bus);
  });
  afterEach(() => {
    reconciler.onApplicationShutdown();
    return h.close();
  });

  const namespace = (name: string, liveLessonId: string | undefined, terminating = false) =>
    h.cluster.namespaces.set(name, { name, ...(liveLessonId ? { liveLessonId } : {}), createdAt: new Date(), terminating });

  it.each([
    { case: 'a namespace whose live lesson exists', record: true, label: true, terminating: false, deleted: false },
    { case: 'a namespace with no record', record: false, label: true, terminating: false, deleted: true },
    { case: 'a Terminating namespace with no record', record: false, label: true, terminating: true, deleted: false },
    { case: 'a namespace without a liveLesson label', record: false, label: false, terminating: false, deleted: false },
  ])('$case: deleted=$deleted', async ({ record, label, terminating, deleted }) => {
    const lesson = await h.newLiveLesson();
    await h.data.liveLessons.updateStatus(lesson.id, LiveLessonStatus.READY);
    const id = record ? lesson.id : 'gone000001';
    const name = h.namespaceOf(id);
    namespace(name, label ? id : undefined, terminating);
    if (record) namespace(h.namespaceOf(lesson.id), lesson.id);
    await reconciler.reconcile();
    const deletes = h.cluster.calls.filter((call) => call.startsWith('deleteNamespace'));
    expect(deletes).toEqual(deleted ? [`deleteNamespace ${name}`] : []);
  });

  it.each([
    { case: 'provisioned, namespace gone', status: LiveLessonStatus.BOOTING, claimedBy: undefined, deleteRequested: false, failed: true },
    { case: 'not provisioned yet', status: LiveLessonStatus.INITIALIZED, claimedBy: undefined, deleteRequested: false, failed: false },
    { case: 'claimed by another replica', status: LiveLessonStatus.READY, claimedBy: 'another-replica', deleteRequested: false, failed: false },
    { case: 'claimed by this replica before a restart', status: LiveLessonStatus.READY, claimedBy: owner, deleteRequested: false, failed: true },
    { case: 'being deleted', status: LiveLessonStatus.READY, claimedBy: undefined, deleteRequested: true, failed: false },
  ])('a record without its namespace, $case: failed=$failed', async ({ status, claimedBy, deleteRequested, failed }) => {
    const lesson = await h.newLiveLesson();
    if (status !== LiveLessonStatus.INITIALIZED) await h.data.liveLessons.updateStatus(lesson.id, status);
    if (claimedBy) await h.data.work.claim(lesson.id, claimedBy, 2 * HOUR);
    if (deleteRequested) await h.data.liveLessons.requestDeletion(lesson.id);
    await reconciler.reconcile();
    const row = await h.data.liveLessons.get(lesson.id);
    expect(row.error).toBe(failed);
    if (failed) expect(row.failureReason).toMatch(/disappeared/);
  });

  it.each([
    { case: 'an accepted create', setup: (_id: string) => Promise.resolve(undefined), kind: 'create' },
    { case: 'a requested deletion', setup: (id: string) => h.data.liveLessons.requestDeletion(id), kind: 'delete' },
    {
      case: 'a stage change',
      setup: async (id: string) => {
        await h.data.liveLessons.updateStatus(id, LiveLessonStatus.READY);
        await h.data.liveLessons.setConfiguredStage(id, 0);
        await h.data.liveLessons.changeStage(id, 1, { guideType: 'markdown', guideContents: 'second' });
      },
      kind: 'modify',
    },
  ])('re-drives $case nobody works on as a $kind', async ({ setup, kind }) => {
    const lesson = await h.newLiveLesson();
    await setup(lesson.id);
    namespace(h.namespaceOf(lesson.id), lesson.id);
    expect(await reconciler.redrive(new Date())).toBe(1);
    expect(submitted).toEqual([{ kind, id: lesson.id, why: expect.stringMatching(/^unclaimed, no change since /) }]);
  });

  it("takes over at once (no age needed) work whose holder's claim lapsed, and its own from before a restart, naming why", async () => {
    const lapsed = await h.newLiveLesson();
    await h.data.work.claim(lapsed.id, 'dead-replica', 1000);
    const mine = await h.newLiveLesson();
    await h.data.work.claim(mine.id, owner, 2 * HOUR);
    const held = await h.newLiveLesson();
    await h.data.work.claim(held.id, 'live-replica', 2 * HOUR);
    await h.newLiveLesson();
    await vi.waitFor(async () => expect(await h.data.work.findNeedingWork({ owner: 'anyone', limit: 10 })).toHaveLength(1));
    expect(await reconciler.redrive()).toBe(2);
    expect(submitted).toEqual(
      expect.arrayContaining([
        { kind: 'create', id: lapsed.id, why: expect.stringMatching(/^the claim of dead-replica lapsed at /) },
        { kind: 'create', id: mine.id, why: 'claimed by this replica before it restarted' },
      ]),
    );
  });

  it('drives again everything that needs work, however new, when the NATS connection comes back', async () => {
    reconciler.onApplicationBootstrap();
    await reconciler.started();
    const accepted = await h.newLiveLesson();
    submitted.length = 0;
    h.bus.reconnect();
    await vi.waitFor(() => expect(submitted).toEqual([{ kind: 'create', id: accepted.id, why: 'the NATS connection is back' }]));
  });

  it('re-drives nothing that is READY or claimed', async () => {
    const ready = await h.newLiveLesson();
    await h.data.liveLessons.updateStatus(ready.id, LiveLessonStatus.READY);
    const claimed = await h.newLiveLesson();
    await h.data.work.claim(claimed.id, 'another-replica', 2 * HOUR);
    expect(await reconciler.redrive(new Date())).toBe(0);
    expect(submitted).toEqual([]);
  });
});
