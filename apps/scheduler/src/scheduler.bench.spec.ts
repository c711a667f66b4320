import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startTestPlatform } from '@antidote/testing';
import { expect, it } from 'vitest';
import { schedulerService } from './scheduler.definition.js';

const LESSONS = Number(process.env.BENCH_LESSONS ?? 40);

/** Live lessons from request to READY on kube-sim: time per lesson and Kubernetes API calls per lesson. */
it(`provisions ${LESSONS} live lessons at once and prints the figures`, async () => {
  const p = await startTestPlatform('sqlite', {
    services: { healthchecker: healthcheckerService, scheduler: schedulerService },
    faults: { podStartDelayMs: 200, jobRunDelayMs: 200 },
    overrides: { scheduler: { maxConcurrentOperations: 20 } },
  });
  try {
    const slugs = ['network-automation', 'linux-basics', 'web-services'];
    const lessons = await Promise.all(Array.from({ length: LESSONS }, (_, i) => p.newLiveLesson(slugs[i % slugs.length])));
    p.sim.counters.reset();
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    await Promise.all(lessons.map((lesson) => p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id })));
    for (const lesson of lessons) await expect.poll(async () => (await p.data.liveLessons.find(lesson.id))?.status, { timeout: 300_000, interval: 100 }).toBe(LiveLessonStatus.READY);
    const seconds = (performance.now() - started) / 1000;
    const counts = p.sim.counters.snapshot();
    const lists = counts.byVerb.list ?? 0;
    const gets = counts.byVerb.get ?? 0;
    console.log(
      [
        `bench scheduler: ${LESSONS} live lessons READY in ${seconds.toFixed(1)} s (${(LESSONS / seconds).toFixed(2)} lessons/s, 20 in parallel)`,
        `  Kubernetes API calls: ${counts.total} in all, ${(counts.total / LESSONS).toFixed(1)} per lesson (create ${((counts.byVerb.create ?? 0) / LESSONS).toFixed(1)}, watch ${((counts.byVerb.watch ?? 0) / LESSONS).toFixed(1)}, list ${(lists / LESSONS).toFixed(1)}, get ${(gets / LESSONS).toFixed(1)})`,
        `  scheduler process RSS growth: ${((process.memoryUsage().rss - rss) / 1024 / 1024).toFixed(0)} MiB`,
      ].join('\n'),
    );
  } finally {
    await p.stop();
  }
});
