import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { KubeClient } from '@antidote/kube';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { INSTANCE, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from './scheduler.definition.js';

type Platform = TestPlatform<'healthchecker' | 'scheduler', KubeSim>;
const ns = (id: string) => `${INSTANCE}-${id}`;

/** The calls made meanwhile, by `verb resource code`, from kube-sim's counters. */
function delta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const changed: Record<string, number> = {};
  for (const [key, count] of Object.entries(after)) if (count !== (before[key] ?? 0)) changed[key] = count - (before[key] ?? 0);
  return changed;
}

/**
 * The scheduler waits on shared informers (namespaces, pods, jobs of this instance; every namespace's
 * default ServiceAccount) instead of a list + watch per wait: a CREATE costs its creates only, the waits
 * ride out dropped watches and 410s, and a namespace deleted by hand fails its live lesson.
 */
describe('scheduler on shared informers (kube-sim, nats-server, SQLite)', () => {
  let p: Platform;

  beforeAll(async () => {
    // The namespace's ServiceAccount comes 200 ms after the namespace (a controller's work, as on a real
    // cluster): the pods wait for it in the cache, so no create is refused for its absence.
    p = await startTestPlatform('sqlite', {
      cluster: startKubeSim,
      services: { healthchecker: healthcheckerService, scheduler: schedulerService },
      faults: { serviceAccountDelayMs: 200 },
    });
  });
  afterAll(() => p?.stop());

  const create = (id: string) => p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: id });
  const outcome = (id: string) =>
    expect.poll(
      async () => {
        const lesson = await p.data.liveLessons.find(id);
        return lesson?.error ? `failed: ${lesson.failureReason}` : lesson?.status;
      },
      { timeout: 60_000, interval: 50 },
    );

  it('one CREATE of network-automation costs its creates and nothing else: no list, no watch, no read per lesson', async () => {
    // The copied TLS secret is read once a minute per process, not per lesson: a first lesson fills that cache.
    const first = await p.newLiveLesson('network-automation');
    await create(first.id);
    await outcome(first.id).toBe(LiveLessonStatus.READY);
    const before = p.sim.counters.snapshot().byKey;
    const lesson = await p.newLiveLesson('network-automation');
    expect(await create(lesson.id)).toEqual({ accepted: true });
    await outcome(lesson.id).toBe(LiveLessonStatus.READY);
    const calls = delta(before, p.sim.counters.snapshot().byKey);
    // At most one read of the TLS secret, when its minute in the cache ran out during this lesson.
    expect(calls['get secrets 200'] ?? 0).toBeLessThanOrEqual(1);
    delete calls['get secrets 200'];
    expect(calls).toEqual({
      'create namespaces 201': 1,
      'create networkpolicies 201': 1,
      'create resourcequotas 201': 1,
      'create limitranges 201': 1,
      'create secrets 201': 2,
      'create network-attachment-definitions 201': 3,
      'create pods 201': 3,
      'create services 201': 3,
      'create jobs 201': 3,
    });
    expect(Object.values(calls).reduce((sum, n) => sum + n, 0)).toBe(18);
  });

  it('waits ride out a dropped watch and a 410: every informer re-lists once and the lesson still reaches READY', async () => {
    p.sim.setFaults({ podStartDelayMs: 1500, jobRunDelayMs: 500 });
    const lists = () => ['namespaces', 'pods', 'jobs', 'serviceaccounts'].map((resource) => p.sim.counters.count('list', resource));
    const lesson = await p.newLiveLesson('network-automation');
    await create(lesson.id);
    await expect.poll(async () => (await p.data.liveLessons.find(lesson.id))?.status, { timeout: 30_000, interval: 20 }).toBe(LiveLessonStatus.BOOTING);
    const listed = lists();
    // All three in one turn of the event loop, so no event or bookmark moves a watch past the compaction:
    // a write the informers do not select, the history dropped, every watch cut — each resume gets 410 Gone.
    p.sim.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `unrelated-${lesson.id}` } });
    p.sim.compactHistory();
    expect(p.sim.dropWatches()).toBeGreaterThanOrEqual(4);
    await expect.poll(() => lists().map((count, i) => count - listed[i]), { timeout: 30_000 }).toEqual([1, 1, 1, 1]);
    await outcome(lesson.id).toBe(LiveLessonStatus.READY);
    p.sim.setFaults({ podStartDelayMs: 50, jobRunDelayMs: 50 });
  });

  it('a namespace deleted by hand fails its READY live lesson with the reason', async () => {
    const lesson = await p.newLiveLesson('linux-basics');
    await create(lesson.id);
    await outcome(lesson.id).toBe(LiveLessonStatus.READY);
    // Deleted as an operator's kubectl would: over HTTP, outside Antidote (no deletion on the row).
    const kube = p.running('scheduler')[0].app.get(KubeClient).child();
    expect(await kube.delete('Namespace', '', ns(lesson.id))).toBe(true);
    await outcome(lesson.id).toMatch(/^failed: Namespace .* was deleted outside Antidote/);
    expect(await p.data.liveLessons.find(lesson.id)).toMatchObject({ error: true, status: LiveLessonStatus.READY });
  });

  it('a namespace deleted by hand while the lesson boots fails it with the reason, not at the pods deadline', async () => {
    p.sim.setFaults({ podStartDelayMs: 600_000 });
    const lesson = await p.newLiveLesson('linux-basics');
    await create(lesson.id);
    await expect.poll(async () => (await p.data.liveLessons.find(lesson.id))?.status, { timeout: 30_000, interval: 20 }).toBe(LiveLessonStatus.BOOTING);
    const kube = p.running('scheduler')[0].app.get(KubeClient).child();
    expect(await kube.delete('Namespace', '', ns(lesson.id))).toBe(true);
    await outcome(lesson.id).toMatch(/namespace .* was deleted/);
    p.sim.setFaults({ podStartDelayMs: 50 });
  });
});
