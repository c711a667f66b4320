import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { DATABASE_KINDS, INSTANCE, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SchedulerProcesses } from '../test/scheduler-processes.js';

const CLAIM_LEASE_SECONDS = 3;
const ORDER = [LiveLessonStatus.BOOTING, LiveLessonStatus.CONFIGURATION, LiveLessonStatus.READY];

/**
 * A hard kill (SIGKILL: no shutdown hook, the claim is never released) of a scheduler process in the
 * middle of a CREATE: the next scheduler process takes the live lesson over once the claim lease lapses
 * (another replica running meanwhile, within a second of it), or at once when it is the same replica
 * started again (its name), and finishes it: one namespace, the same pods, nothing orphaned.
 */
describe.each(DATABASE_KINDS)('scheduler processes on kube-sim, nats-server and %s', (kind) => {
  let p: TestPlatform<'healthchecker', KubeSim>;
  let schedulers: SchedulerProcesses;

  beforeAll(async () => {
    p = await startTestPlatform(kind, {
      cluster: startKubeSim,
      services: { healthchecker: healthcheckerService },
      // Pods stay Pending long enough that the kill lands mid-CREATE however loaded the machine is.
      faults: { podStartDelayMs: 15_000 },
      overrides: { scheduler: { claimLeaseSeconds: CLAIM_LEASE_SECONDS, redriveIntervalSeconds: 1, redriveAfterSeconds: 1 } },
    });
    schedulers = new SchedulerProcesses({ ...p.config, ...p.nats.loginAs('scheduler') });
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') process.stderr.write(`scheduler processes' output:\n${schedulers?.log ?? ''}\n`);
    await schedulers?.killAll();
  });
  afterAll(() => p?.stop());

  it(
    'a scheduler killed with SIGKILL mid-CREATE is taken over after its claim lease: READY, one namespace, the same pods, no orphan',
    { timeout: 300_000 },
    async () => {
      const first = await schedulers.start();
      const lesson = await p.newLiveLesson('network-automation');
      const namespace = `${INSTANCE}-${lesson.id}`;
      expect(await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id })).toEqual({ accepted: true });
      const endpointPods = () => p.sim.list('pods', namespace).filter((pod) => !pod.metadata.labels?.configPod);
      await expect.poll(async () => (await p.data.liveLessons.find(lesson.id))?.status).toBe(LiveLessonStatus.BOOTING);
      await expect.poll(() => endpointPods().length).toBe(lesson.endpoints.length);
      expect(endpointPods().every((pod) => pod.status?.phase === 'Pending')).toBe(true);
      const podUids = endpointPods()
        .map((pod) => pod.metadata.uid)
        .sort();

      await schedulers.kill(first, 'SIGKILL');
      const orphaned = await p.data.liveLessons.get(lesson.id);
      expect(orphaned).toMatchObject({ status: LiveLessonStatus.BOOTING, error: false, claimedBy: expect.any(String) });
      const leaseEnd = orphaned.claimedUntil!;

      await schedulers.start();
      await expect
        .poll(
          async () => {
            const current = await p.data.liveLessons.find(lesson.id);
            return current?.error ? `failed: ${current.failureReason}` : current?.status;
          },
          { timeout: 180_000, interval: 200 },
        )
        .toBe(LiveLessonStatus.READY);

      const ready = await p.data.liveLessons.get(lesson.id);
      expect(ready.claimedBy).not.toBe(orphaned.claimedBy);
      expect(new Date(ready.phaseTimes.readyAt!).getTime()).toBeGreaterThanOrEqual(leaseEnd.getTime());
      const lessonNamespaces = p.sim.list('namespaces').filter((n) => n.metadata.labels?.liveLesson === lesson.id);
      expect(lessonNamespaces.map((n) => n.metadata.name)).toEqual([namespace]);
      expect(
        endpointPods()
          .map((pod) => pod.metadata.name)
          .sort(),
      ).toEqual(lesson.endpoints.map((endpoint) => endpoint.name).sort());
      expect(
        endpointPods()
          .map((pod) => pod.metadata.uid)
          .sort(),
      ).toEqual(podUids);
      const managed = p.sim.list('namespaces').filter((n) => n.metadata.labels?.antidoteId === INSTANCE && !n.metadata.deletionTimestamp);
      for (const other of managed) expect(await p.data.liveLessons.exists(other.metadata.labels!.liveLesson), other.metadata.name).toBe(true);
      // Events are at most once: the BOOTING one may die unsent with the killed process; what arrives never goes backwards.
      // The row is written before the event is published (by another process): wait for the READY event.
      await expect.poll(() => p.eventsOf(lesson.id).at(-1)?.status).toBe(LiveLessonStatus.READY);
      const statuses = p.eventsOf(lesson.id).map((event) => event.status);
      expect(statuses.at(-1)).toBe(LiveLessonStatus.READY);
      expect(statuses).toEqual(ORDER.filter((status) => statuses.includes(status)));
    },
  );

  /** Creates a network-automation lesson and waits until its pods exist, still Pending (mid-CREATE). */
  const midCreate = async () => {
    const lesson = await p.newLiveLesson('network-automation');
    const namespace = `${INSTANCE}-${lesson.id}`;
    expect(await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id })).toEqual({ accepted: true });
    await expect.poll(() => p.sim.list('pods', namespace).filter((pod) => !pod.metadata.labels?.configPod).length).toBe(lesson.endpoints.length);
    return lesson;
  };
  const readyOrWhy = async (id: string) => {
    const current = await p.data.liveLessons.find(id);
    return current?.error ? `failed: ${current.failureReason}` : current?.status;
  };

  it(
    "another replica takes a killed one's work over once its lease lapses, and logs the re-drive with the lab, the reason and itself as the new owner",
    { timeout: 300_000 },
    async () => {
      const doomed = await schedulers.start({ replicaName: 'scheduler-a' });
      const survivor = await schedulers.start({ replicaName: 'scheduler-b' });
      const lesson = await midCreate();
      await expect.poll(async () => (await p.data.liveLessons.get(lesson.id)).claimedBy).toMatch(/^scheduler-[ab]$/);
      const holder = (await p.data.liveLessons.get(lesson.id)).claimedBy === 'scheduler-a' ? doomed : survivor;
      const other = holder === doomed ? survivor : doomed;
      const [dead, alive] = holder === doomed ? ['scheduler-a', 'scheduler-b'] : ['scheduler-b', 'scheduler-a'];
      await schedulers.kill(holder, 'SIGKILL');
      await expect.poll(() => readyOrWhy(lesson.id), { timeout: 180_000, interval: 200 }).toBe(LiveLessonStatus.READY);
      expect(other.output).toMatch(
        new RegExp(`re-drive of live lesson ${lesson.id}: create \\(the claim of ${dead} lapsed at [^)]+\\), now owned by ${alive}`),
      );
      expect(p.sim.list('namespaces').filter((n) => n.metadata.labels?.liveLesson === lesson.id)).toHaveLength(1);
    },
  );

  it('a replica started again under its name resumes its own claims at once, long before their lease would lapse', { timeout: 300_000 }, async () => {
    const LEASE = { replicaName: 'scheduler-a', claimLeaseSeconds: 600 };
    const first = await schedulers.start(LEASE);
    const lesson = await midCreate();
    await expect.poll(async () => (await p.data.liveLessons.get(lesson.id)).claimedBy).toBe('scheduler-a');
    await schedulers.kill(first, 'SIGKILL');
    const leaseEnd = (await p.data.liveLessons.get(lesson.id)).claimedUntil!;
    const again = await schedulers.start(LEASE);
    await expect.poll(() => readyOrWhy(lesson.id), { timeout: 180_000, interval: 200 }).toBe(LiveLessonStatus.READY);
    expect(new Date((await p.data.liveLessons.get(lesson.id)).phaseTimes.readyAt!).getTime()).toBeLessThan(leaseEnd.getTime());
    expect(again.output).toMatch(
      new RegExp(`re-drive of live lesson ${lesson.id}: create \\(claimed by this replica before it restarted\\), now owned by scheduler-a`),
    );
  });
});
