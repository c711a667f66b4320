import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from './scheduler.definition.js';

/** The scheduler when Kubernetes misbehaves: errors, latency, an outage, dropped and expired watches. */
describe('scheduler under Kubernetes faults (kube-sim, nats-server, SQLite)', () => {
  let p: TestPlatform<'healthchecker' | 'scheduler', KubeSim>;

  beforeAll(async () => {
    p = await startTestPlatform('sqlite', {
      cluster: startKubeSim,
      services: { healthchecker: healthcheckerService, scheduler: schedulerService },
      faults: { podStartDelayMs: 300, jobRunDelayMs: 200 },
    });
  });
  afterAll(() => p?.stop());

  const ready = (id: string, timeout = 60_000) =>
    expect.poll(
      async () => {
        const lesson = await p.data.liveLessons.find(id);
        return lesson?.error ? `failed: ${lesson.failureReason}` : lesson?.status;
      },
      { timeout, interval: 100 },
    );

  it('reaches READY through 503s and 429s on a quarter of the calls, with added latency', async () => {
    p.sim.setFaults({
      errors: [
        { code: 503, rate: 0.2 },
        { code: 429, rate: 0.05, retryAfterSeconds: 1 },
      ],
      latencyMs: { '*': 20 },
    });
    const lessons = await Promise.all([p.newLiveLesson('network-automation'), p.newLiveLesson('linux-basics'), p.newLiveLesson('web-services')]);
    for (const lesson of lessons) await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id });
    for (const lesson of lessons) await ready(lesson.id).toBe(LiveLessonStatus.READY);
    p.sim.resetFaults();
    p.sim.setFaults({ podStartDelayMs: 300, jobRunDelayMs: 200 });
  });

  it('rides out a 3 s API outage in the middle of a create', async () => {
    const lesson = await p.newLiveLesson('network-automation');
    await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id });
    await expect.poll(async () => (await p.data.liveLessons.find(lesson.id))?.status, { interval: 20 }).not.toBe(LiveLessonStatus.INITIALIZED);
    p.sim.outage(3000);
    await ready(lesson.id).toBe(LiveLessonStatus.READY);
  });

  it('keeps waiting correctly when watches are dropped and their history is compacted (410)', async () => {
    p.sim.setFaults({ podStartDelayMs: 1500, jobRunDelayMs: 800 });
    const lesson = await p.newLiveLesson('network-automation');
    await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id });
    const chaos = setInterval(() => {
      p.sim.compactHistory();
      p.sim.dropWatches();
    }, 250);
    try {
      await ready(lesson.id).toBe(LiveLessonStatus.READY);
    } finally {
      clearInterval(chaos);
    }
  });

  it('deletes through errors: nothing is left behind', async () => {
    const lesson = await p.newLiveLesson('linux-basics');
    p.sim.setFaults({ podStartDelayMs: 50 });
    await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id });
    await ready(lesson.id).toBe(LiveLessonStatus.READY);
    p.sim.setFaults({ errors: [{ verb: 'delete', code: 503, count: 3 }] });
    await p.deleteLiveLesson(lesson.id);
    await expect.poll(() => p.data.liveLessons.find(lesson.id)).toBeUndefined();
    expect(p.sim.list('namespaces').some((n) => n.metadata.labels?.liveLesson === lesson.id)).toBe(false);
  });
});
