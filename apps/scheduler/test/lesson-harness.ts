import { setTimeout as sleep } from 'node:timers/promises';
import { parseConfig, type AntidoteConfig } from '@antidote/config';
import { RequestSubjects, type WaitReachableReply } from '@antidote/contracts';
import type { Lesson } from '@antidote/curriculum';
import { CurriculumSnapshot, type DataManager, type LiveLesson } from '@antidote/data';
import { liveLessonRecord } from '@antidote/lesson-objects';
import { MetricsService } from '@antidote/runtime';
import { FakeBus, makeCurriculum, makeImage, makeLesson, memoryDatabase } from '@antidote/testing';
import { Admission } from '../src/admission/admission.service.js';
import { AdmissionMetrics } from '../src/admission/admission.metrics.js';
import { FakeLessonCluster } from '../src/cluster/lesson-cluster.fake.js';
import { CreateLessonOperation } from '../src/lesson/create-lesson.operation.js';
import { DeleteLessonOperation } from '../src/lesson/delete-lesson.operation.js';
import { LessonPlanFactory } from '../src/lesson/lesson-plan.factory.js';
import { ModifyLessonOperation } from '../src/lesson/modify-lesson.operation.js';
import { ReachabilityClient } from '../src/lesson/reachability.client.js';
import { StartEstimates } from '../src/lesson/start-estimates.js';
import { StatusReporter } from '../src/lesson/status-reporter.js';
import { LessonScheduler } from '../src/lesson-scheduler.service.js';
import { SchedulerMetrics } from '../src/scheduler.metrics.js';

export const INSTANCE = 'antidote-unit';

/** The healthchecker's answer when `down` endpoints never answered their ssh probe. */
export const unreachable = (down: readonly string[]): WaitReachableReply => ({
  reachable: false,
  healthy: 0,
  total: down.length,
  elapsedMs: 1000,
  endpoints: down.map((name) => ({
    name,
    host: `${name}.svc`,
    reachable: false,
    latencyMs: 0,
    probes: [{ target: 'cli', kind: 'ssh', port: 22, verdict: 'refused', reachable: false, latencyMs: 0 }],
  })),
});

/** Two endpoints on one image: enough for order, hosts and reachability without a bigger fixture. */
export const twoHostLesson = (overrides: Partial<Lesson> = {}): Lesson =>
  makeLesson({
    endpoints: [
      {
        name: 'linux1',
        image: 'utility',
        configurationType: 'python',
        configurationFile: 'linux1.py',
        configurationFiles: {},
        additionalPorts: [],
        presentations: [{ name: 'cli', port: 22, type: 'ssh' }],
      },
      {
        name: 'linux2',
        image: 'utility',
        configurationType: '',
        configurationFile: '',
        configurationFiles: {},
        additionalPorts: [],
        presentations: [{ name: 'cli', port: 22, type: 'ssh' }],
      },
    ],
    stages: [
      { description: 'one', guideType: 'markdown', stageVideo: '', guideContents: 'first' },
      { description: 'two', guideType: 'markdown', stageVideo: '', guideContents: 'second' },
    ],
    ...overrides,
  });

/**
 * The scheduler's orchestration wired as SchedulerModule does, on in-memory parts: SQLite in memory,
 * a FakeLessonCluster, a FakeBus whose healthchecker answers `reachable` (change with `reachable()`).
 * `clockOffsetMs` moves the database's clock (rows written an hour ago: -3_600_000).
 */
export async function lessonHarness(options: { lesson?: Lesson; config?: Record<string, unknown>; clockOffsetMs?: number } = {}) {
  const lesson = options.lesson ?? twoHostLesson();
  const config: AntidoteConfig = parseConfig({
    instanceId: INSTANCE,
    curriculumDir: '/curriculum',
    hepsDomain: 'heps.test',
    timeouts: { reachabilitySeconds: 1 },
    ...options.config,
  }).config;
  const offset = options.clockOffsetMs ?? 0;
  const data: DataManager = await memoryDatabase(offset ? () => new Date(Date.now() + offset) : undefined);
  await data.curriculum.replaceCurriculum(makeCurriculum({ lessons: [lesson], images: [makeImage()] }));
  const cluster = new FakeLessonCluster();
  const bus = new FakeBus();
  let reply = (_liveLessonId: string): WaitReachableReply => ({ reachable: true, healthy: 0, total: 0, elapsedMs: 1, endpoints: [] });
  bus.answer(RequestSubjects.healthWaitReachable, async ({ liveLessonId, deadlineMs }) => {
    cluster.calls.push('waitReachable');
    const answer = reply(liveLessonId);
    // As the healthchecker does: each endpoint found up is recorded on the row.
    for (const endpoint of answer.endpoints.filter((e) => e.reachable)) await data.liveLessons.recordEndpointUp(liveLessonId, endpoint.name);
    // As the healthchecker does: an endpoint that stays down is reported once the deadline has passed.
    if (!answer.reachable) await sleep(deadlineMs ?? 0);
    return answer;
  });
  const registry = new MetricsService('scheduler-unit');
  const metrics = new SchedulerMetrics(registry);
  const admission = new Admission(data, new AdmissionMetrics(registry), config);
  const status = new StatusReporter(data, bus, metrics);
  // The curriculum held in memory, as the scheduler holds it; a test that imports another announces it (`curriculum.refresh()`).
  const curriculum = new CurriculumSnapshot(data.curriculum);
  const plans = new LessonPlanFactory(data, config, curriculum);
  const reachability = new ReachabilityClient(bus, { attemptMs: 1000, replyMarginMs: 100, retryMs: 10 });
  const estimates = new StartEstimates(data);
  const creates = new CreateLessonOperation(data, cluster, plans, reachability, status, estimates, admission, config);
  const modifies = new ModifyLessonOperation(data, cluster, plans, status, config);
  const deletes = new DeleteLessonOperation(data, cluster, status, admission, config);
  let ids = 0;

  return {
    config,
    data,
    curriculum,
    cluster,
    bus,
    status,
    metrics,
    admission,
    creates,
    modifies,
    deletes,
    /** A LessonScheduler over the same parts. */
    scheduler: () => new LessonScheduler(data, creates, modifies, deletes, status, metrics, config),
    /** What the healthchecker answers from now on. */
    reachable(next: (liveLessonId: string) => WaitReachableReply) {
      reply = next;
    },
    namespaceOf: (id: string) => `${INSTANCE}-${id}`,
    /** Writes the live lesson row as the api does (INITIALIZED, no request sent). */
    async newLiveLesson(stage = 0): Promise<LiveLesson> {
      const id = `unit${String(++ids).padStart(6, '0')}`;
      const sessionId = `sess${String(ids).padStart(6, '0')}`;
      await data.liveSessions.create({ id: sessionId, sourceIp: '127.0.0.1' });
      const images = new Map([[makeImage().slug, makeImage()]]);
      return data.liveLessons.create(
        liveLessonRecord(lesson, { id, sessionId, instanceId: INSTANCE, hepsDomain: 'heps.test', stage, imageOf: (slug) => images.get(slug) }),
      );
    },
    close: () => data.close(),
  };
}

export type LessonHarness = Awaited<ReturnType<typeof lessonHarness>>;
