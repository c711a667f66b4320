import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from './scheduler.definition.js';

/** The value of one sample line of a Prometheus text exposition (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/**
 * /metrics as Prometheus scrapes it from the scheduler and the healthchecker, after one live lesson to
 * READY and one request that breaks the contract: time to READY and phases, Kubernetes calls by
 * verb/resource/code, and NATS request latency and errors at both ends of every request.
 */
describe('metrics of a live lesson, scraped from /metrics', () => {
  let p: TestPlatform<'healthchecker' | 'scheduler', KubeSim>;
  const scrape = async (service: 'healthchecker' | 'scheduler') => (await fetch(`${p.running(service)[0].url}/metrics`)).text();

  beforeAll(async () => {
    p = await startTestPlatform('sqlite', { cluster: startKubeSim, services: { healthchecker: healthcheckerService, scheduler: schedulerService } });
  });
  afterAll(() => p?.stop());

  it('counts what the lesson cost, and every NATS request by subject and outcome at both ends', async () => {
    const lesson = await p.newLiveLesson('linux-basics');
    await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id });
    await expect.poll(async () => (await p.data.liveLessons.find(lesson.id))?.status).toBe(LiveLessonStatus.READY);
    const wrongType = await p.connection.request(RequestSubjects.liveLessonCreate, JSON.stringify({ liveLessonId: 42 }), { timeout: 30_000 });
    expect(wrongType.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD' } });

    const scheduler = await scrape('scheduler');
    expect(sample(scheduler, 'antidote_time_to_ready_seconds_count', { service: 'scheduler' })).toBe(1);
    expect(sample(scheduler, 'antidote_kube_api_calls_total', { verb: 'create', resource: 'pods', code: '201' })).toBe(1);
    const handled = { service: 'scheduler', subject: RequestSubjects.liveLessonCreate };
    expect(sample(scheduler, 'antidote_nats_handled_duration_seconds_count', { ...handled, outcome: 'ok' })).toBe(1);
    expect(sample(scheduler, 'antidote_nats_handled_duration_seconds_count', { ...handled, outcome: 'INVALID_PAYLOAD' })).toBe(1);
    // The scheduler asked the healthchecker whether the lab is reachable: a request at its end, handled at the other.
    expect(
      sample(scheduler, 'antidote_nats_request_duration_seconds_count', { subject: RequestSubjects.healthWaitReachable, outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    const healthchecker = await scrape('healthchecker');
    expect(
      sample(healthchecker, 'antidote_nats_handled_duration_seconds_count', {
        service: 'healthchecker',
        subject: RequestSubjects.healthWaitReachable,
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(1);
  });
});
