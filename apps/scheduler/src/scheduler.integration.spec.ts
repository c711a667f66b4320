import { DELETION_NOT_REQUESTED, LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { DATABASE_KINDS, INSTANCE, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LessonScheduler } from './lesson-scheduler.service.js';
import { schedulerService } from './scheduler.definition.js';

const ns = (id: string) => `${INSTANCE}-${id}`;
type Platform = TestPlatform<'healthchecker' | 'scheduler', KubeSim>;
const services = { healthchecker: healthcheckerService, scheduler: schedulerService };

/** Polls the live lesson row until `predicate` holds; on timeout the error shows the last state. */
async function waitForLesson(
  p: Platform,
  id: string,
  predicate: (lesson: Awaited<ReturnType<Platform['data']['liveLessons']['find']>>) => boolean,
  timeout = 90_000,
) {
  const until = Date.now() + timeout;
  for (;;) {
    const lesson = await p.data.liveLessons.find(id);
    if (predicate(lesson)) return lesson;
    if (Date.now() > until)
      throw new Error(`timed out; last state ${JSON.stringify({ status: lesson?.status, error: lesson?.error, reason: lesson?.failureReason })}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(DATABASE_KINDS)('scheduler on kube-sim, nats-server and %s', (kind) => {
  let p: Platform;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { cluster: startKubeSim, services });
  });
  afterAll(() => p?.stop());

  const waitFor = (id: string, predicate: Parameters<typeof waitForLesson>[2], timeout?: number) => waitForLesson(p, id, predicate, timeout);
  const create = (id: string) => p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: id });

  it('creates a live lesson through to READY, every object in place, every transition published', async () => {
    const lesson = await p.newLiveLesson('network-automation');
    expect(await create(lesson.id)).toEqual({ accepted: true });
    const ready = await waitFor(lesson.id, (l) => l?.status === LiveLessonStatus.READY || Boolean(l?.error));
    expect(ready?.failureReason).toBeUndefined();
    expect(ready).toMatchObject({ status: LiveLessonStatus.READY, error: false, configuredStage: 0 });
    expect(ready!.endpoints.every((endpoint) => endpoint.host?.startsWith(`${p.sim.ranges.services}.`))).toBe(true);
    expect(ready!.phaseTimes).toMatchObject({ bootingAt: expect.any(String), configurationAt: expect.any(String), readyAt: expect.any(String) });
    const namespace = p.sim.list('namespaces').find((n) => n.metadata.name === ns(lesson.id));
    expect(namespace?.metadata.labels).toMatchObject({ antidoteManaged: 'yes', antidoteId: INSTANCE, liveLesson: lesson.id, lessonSlug: 'network-automation' });
    const objects = (plural: string) => p.sim.list(plural, ns(lesson.id));
    expect(
      objects('pods')
        .filter((pod) => !pod.metadata.labels?.configPod)
        .map((pod) => pod.metadata.name)
        .sort(),
    ).toEqual(ready!.endpoints.map((e) => e.name).sort());
    expect(objects('network-attachment-definitions').length).toBeGreaterThan(0);
    expect(objects('secrets').map((s) => s.metadata.name)).toContain('tls-certificate');
    expect(objects('jobs').map((job) => job.metadata.labels?.stageId)).toEqual(expect.arrayContaining(['0']));
    // The row is written before the event is published: wait for the event, then check the order.
    await expect.poll(() => p.eventsOf(lesson.id).at(-1)?.status).toBe(LiveLessonStatus.READY);
    expect(p.eventsOf(lesson.id).map((event) => event.status)).toEqual([LiveLessonStatus.BOOTING, LiveLessonStatus.CONFIGURATION, LiveLessonStatus.READY]);
  });

  it('changes stage: old jobs replaced by the new stage’s, back to READY; keep-alive touches only the database', async () => {
    const lesson = await p.newLiveLesson('network-automation');
    await create(lesson.id);
    await waitFor(lesson.id, (l) => l?.status === LiveLessonStatus.READY);
    expect(await p.data.liveLessons.changeStage(lesson.id, 1, { guideType: 'markdown', guideContents: 'stage 1' })).toBeTruthy();
    expect(await p.bus.request(RequestSubjects.liveLessonModify, { liveLessonId: lesson.id, stage: 1 })).toEqual({ accepted: true });
    const ready = await waitFor(lesson.id, (l) => l?.status === LiveLessonStatus.READY && l.configuredStage === 1);
    expect(ready?.error).toBe(false);
    const stages = p.sim.list('jobs', ns(lesson.id)).map((job) => job.metadata.labels?.stageId);
    expect(new Set(stages)).toEqual(new Set(['1']));
    const calls = p.sim.counters.total();
    const before = (await p.data.liveLessons.get(lesson.id)).lastActiveAt;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await p.bus.request(RequestSubjects.liveLessonKeepAlive, { liveLessonId: lesson.id })).toEqual({ accepted: true });
    expect((await p.data.liveLessons.get(lesson.id)).lastActiveAt.getTime()).toBeGreaterThan(before.getTime());
    expect(p.sim.counters.total()).toBe(calls);
  });

  it('deletes: the namespace is gone, then the record', async () => {
    const lesson = await p.newLiveLesson('linux-basics');
    await create(lesson.id);
    await waitFor(lesson.id, (l) => l?.status === LiveLessonStatus.READY);
    expect(await p.deleteLiveLesson(lesson.id)).toEqual({ accepted: true });
    await waitFor(lesson.id, (l) => l === undefined);
    expect(p.sim.list('namespaces').some((n) => n.metadata.name === ns(lesson.id))).toBe(false);
    expect(await p.bus.request(RequestSubjects.liveLessonDelete, { liveLessonId: lesson.id })).toEqual({ accepted: true });
  });

  it('refuses a forged delete: a request for a row that records no deletion request deletes nothing', async () => {
    const lesson = await p.newLiveLesson('linux-basics');
    await create(lesson.id);
    await waitFor(lesson.id, (l) => l?.status === LiveLessonStatus.READY);
    const deletes = () => p.sim.counters.count('delete', 'namespaces');
    const before = deletes();
    // Sent with a login the server lets publish deletes (the operator's): the bus admits it, the row refuses it.
    expect(await p.bus.request(RequestSubjects.liveLessonDelete, { liveLessonId: lesson.id, reason: 'forged' })).toEqual({
      accepted: false,
      code: DELETION_NOT_REQUESTED,
      reason: expect.stringContaining(lesson.id),
    });
    // A keep-alive is served after the refused delete by the same scheduler: nothing was queued meanwhile.
    expect(await p.bus.request(RequestSubjects.liveLessonKeepAlive, { liveLessonId: lesson.id })).toEqual({ accepted: true });
    expect(p.running('scheduler')[0].app.get(LessonScheduler).pending(lesson.id)).toEqual([]);
    expect(deletes()).toBe(before);
    expect(await p.data.liveLessons.get(lesson.id)).toMatchObject({ status: LiveLessonStatus.READY });
    expect(p.sim.list('namespaces').some((n) => n.metadata.name === ns(lesson.id))).toBe(true);
  });

  it('a duplicated create does the work once', async () => {
    const lesson = await p.newLiveLesson('linux-basics');
    // Pods made (201): a create refused while the namespace's ServiceAccount is not there yet is not one.
    const podCreates = () => p.sim.counters.count('create', 'pods', 201);
    const before = podCreates();
    await Promise.all(Array.from({ length: 5 }, () => create(lesson.id)));
    await waitFor(lesson.id, (l) => l?.status === LiveLessonStatus.READY);
    await Promise.all(Array.from({ length: 3 }, () => create(lesson.id)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(podCreates() - before).toBe(lesson.endpoints.length);
  });

  it('fails a lesson whose image cannot be pulled, with the reason, and cleans its namespace up', async () => {
    const pulled = await p.newLiveLesson('web-services');
    p.sim.setFaults({ imagePullFailure: [pulled.endpoints[0].image] });
    await create(pulled.id);
    const failed = await waitFor(pulled.id, (l) => Boolean(l?.error));
    p.sim.setFaults({ imagePullFailure: [] });
    expect(failed).toMatchObject({ error: true, status: LiveLessonStatus.BOOTING });
    expect(failed!.failureReason).toMatch(/ImagePullBackOff|ErrImagePull/);
    await expect.poll(() => p.sim.list('namespaces').some((n) => n.metadata.name === ns(pulled.id))).toBe(false);
    expect(await create(pulled.id)).toMatchObject({ accepted: false, code: 'FAILED' });
  });

  it('fails on a configuration job that keeps failing, with the job log in the reason', async () => {
    p.sim.setFaults({ jobFailures: [{ pattern: 'config-vqfx2-1', times: 10 }] });
    const lesson = await p.newLiveLesson('network-automation', 1);
    await create(lesson.id);
    const failed = await waitFor(lesson.id, (l) => Boolean(l?.error));
    p.sim.setFaults({ jobFailures: [] });
    expect(failed!.status).toBe(LiveLessonStatus.CONFIGURATION);
    expect(failed!.failureReason).toMatch(/config-vqfx2-1 failed: BackoffLimitExceeded/);
    expect(failed!.failureReason).toMatch(/configuration failed/);
  });

  it('a delete during a create cancels the create cleanly', async () => {
    // The pods would start only after the test's own timeout: only cancelling the create lets the delete finish.
    p.sim.setFaults({ podStartDelayMs: 60 * 60_000 });
    const lesson = await p.newLiveLesson('linux-basics');
    await create(lesson.id);
    await waitFor(lesson.id, (l) => l?.status === LiveLessonStatus.BOOTING);
    await p.deleteLiveLesson(lesson.id);
    await waitFor(lesson.id, (l) => l === undefined);
    p.sim.setFaults({ podStartDelayMs: 50 });
    expect(p.sim.list('namespaces').some((n) => n.metadata.name === ns(lesson.id))).toBe(false);
  });

  it('answers unknown live lessons and malformed messages with clear errors and keeps serving', async () => {
    expect(await create('nosuchless')).toMatchObject({ accepted: false, code: 'NOT_FOUND' });
    const garbage = await p.connection.request(RequestSubjects.liveLessonCreate, '{"liveLessonId":', { timeout: 30_000 });
    expect(garbage.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD' } });
    const wrong = await p.connection.request(RequestSubjects.liveLessonCreate, JSON.stringify({ liveLessonId: 42 }), { timeout: 30_000 });
    expect(wrong.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD' } });
    const lesson = await p.newLiveLesson('linux-basics');
    await create(lesson.id);
    await waitFor(lesson.id, (l) => l?.status === LiveLessonStatus.READY);
  });

  it('a scheduler stopped in the middle of a CREATE leaves nothing broken: the next one finishes it', async () => {
    p.sim.setFaults({ podStartDelayMs: 2500 });
    const lesson = await p.newLiveLesson('network-automation');
    await create(lesson.id);
    await waitFor(lesson.id, (l) => l?.status === LiveLessonStatus.BOOTING);
    await p.stopService('scheduler');
    p.sim.setFaults({ podStartDelayMs: 50 });
    await p.start('scheduler');
    const done = await waitFor(lesson.id, (l) => l?.status === LiveLessonStatus.READY || Boolean(l?.error));
    expect(done).toMatchObject({ status: LiveLessonStatus.READY, error: false });
    const managed = p.sim.list('namespaces').filter((n) => n.metadata.labels?.antidoteId === INSTANCE && !n.metadata.deletionTimestamp);
    for (const namespace of managed) expect(await p.data.liveLessons.exists(namespace.metadata.labels!.liveLesson), namespace.metadata.name).toBe(true);
    expect(p.sim.list('pods', ns(lesson.id)).filter((pod) => !pod.metadata.labels?.configPod)).toHaveLength(3);
  });

  it('reconciles at start: orphan namespaces deleted, lost records failed, requests made while down re-driven', async () => {
    await p.stopService('scheduler');
    p.sim.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns('orphan0001'), labels: { antidoteManaged: 'yes', antidoteId: INSTANCE, liveLesson: 'orphan0001' } },
    });
    const lost = await p.newLiveLesson('linux-basics');
    await p.data.liveLessons.updateStatus(lost.id, LiveLessonStatus.READY);
    const waiting = await p.newLiveLesson('linux-basics');
    await p.start('scheduler');
    await expect.poll(() => p.sim.list('namespaces').some((n) => n.metadata.name === ns('orphan0001'))).toBe(false);
    expect(await waitFor(lost.id, (l) => Boolean(l?.error))).toMatchObject({ failureReason: expect.stringMatching(/disappeared/) });
    expect(await waitFor(waiting.id, (l) => l?.status === LiveLessonStatus.READY)).toMatchObject({ error: false });
  });
});

describe.each(DATABASE_KINDS)('scheduler with a 3 s reachability deadline on %s', (kind) => {
  let p: Platform;

  beforeAll(async () => {
    p = await startTestPlatform(kind, {
      cluster: startKubeSim,
      services,
      overrides: { timeouts: { podRunningSeconds: 20, reachabilitySeconds: 3, configJobSeconds: 20, namespaceDeleteSeconds: 20 } },
    });
  });
  afterAll(() => p?.stop());

  it('fails a lesson whose endpoint never answers at BOOTING, naming the endpoint, and cleans its namespace up', async () => {
    p.sim.setFaults({ unreachable: ['vqfx2'] });
    const lesson = await p.newLiveLesson('network-automation');
    expect(await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id })).toEqual({ accepted: true });
    const failed = await waitForLesson(p, lesson.id, (l) => Boolean(l?.error));
    p.sim.setFaults({ unreachable: [] });
    expect(failed).toMatchObject({ error: true, status: LiveLessonStatus.BOOTING });
    const reason = failed!.failureReason ?? '';
    expect(reason).toMatch(/^vqfx2 did not become reachable within 3 s/);
    expect(reason).toMatch(/vqfx2: cli \(ssh to 127\.\d+\.[\d.]+:22\) refused the connection/);
    expect(reason).not.toMatch(/vqfx1|linux1/);
    await expect.poll(() => p.eventsOf(lesson.id).find((event) => event.error)).toMatchObject({ status: LiveLessonStatus.BOOTING, failureReason: reason });
    await expect.poll(() => p.sim.list('namespaces').some((n) => n.metadata.name === ns(lesson.id))).toBe(false);
  });
});
