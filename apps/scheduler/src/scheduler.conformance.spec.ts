import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { conformanceCluster, INSTANCE, startClusterPlatform, type ClusterTestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from './scheduler.definition.js';

const ns = (id: string) => `${INSTANCE}-${id}`;
const services = { healthchecker: healthcheckerService, scheduler: schedulerService };
const TIMEOUT = { timeout: 90_000, interval: 100 };

/**
 * The scheduler and the healthchecker on a real control plane (kube-apiserver, controller-manager,
 * scheduler) with kube-sim's nodes as kubelets, the scheduler with its own ServiceAccount token bound by
 * deploy/k8s/base/rbac.yaml, the healthchecker with no credentials at all.
 */
describe.skipIf(!conformanceCluster())('scheduler on a real control plane, with real RBAC', () => {
  let p: ClusterTestPlatform<'healthchecker' | 'scheduler'>;

  beforeAll(async () => {
    p = await startClusterPlatform({ services });
  });
  afterAll(() => p?.stop());

  /** Waits until the lesson is READY at `stage` or failed (then shows why). */
  const ready = async (id: string, stage = 0) => {
    await expect
      .poll(async () => {
        const lesson = await p.data.liveLessons.find(id);
        return lesson && (lesson.error || (lesson.status === LiveLessonStatus.READY && lesson.configuredStage === stage)) ? lesson : undefined;
      }, TIMEOUT)
      .toBeDefined();
    const lesson = await p.data.liveLessons.get(id);
    expect({ status: lesson.status, error: lesson.error, reason: lesson.failureReason, stage: lesson.configuredStage }).toEqual({
      status: LiveLessonStatus.READY,
      error: false,
      reason: undefined,
      stage,
    });
  };
  const create = (id: string) => p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: id });

  let lessonId = '';

  it('creates network-automation through to READY: pods run on the nodes, endpoints reached through their ClusterIPs', async () => {
    const lesson = await p.newLiveLesson('network-automation');
    lessonId = lesson.id;
    expect(await create(lesson.id)).toEqual({ accepted: true });
    await ready(lesson.id);
    const live = await p.data.liveLessons.get(lesson.id);
    expect(live.endpoints.every((endpoint) => endpoint.host?.startsWith('127.96.'))).toBe(true);
    const pods = await p.list('/api/v1', 'pods', ns(lesson.id));
    const endpointPods = pods.filter((pod) => !pod.metadata.labels?.configPod);
    expect(endpointPods.map((pod) => pod.metadata.name).sort()).toEqual(live.endpoints.map((endpoint) => endpoint.name).sort());
    for (const pod of endpointPods)
      expect(pod).toMatchObject({
        spec: { nodeName: expect.stringMatching(/^kube-sim-/) },
        status: { phase: 'Running', podIP: expect.stringMatching(/^127\./) },
      });
    const jobs = await p.list('/apis/batch/v1', 'jobs', ns(lesson.id));
    expect(jobs.map((job) => job.metadata.labels?.stageId)).toContain('0');
    expect(jobs.every((job) => (job.status?.conditions as { type: string }[] | undefined)?.some((condition) => condition.type === 'Complete'))).toBe(true);
  });

  it('changes stage: the old jobs replaced by the new stage’s, back to READY; keep-alive touches only the database', async () => {
    await p.data.liveLessons.changeStage(lessonId, 1, { guideType: 'markdown', guideContents: 'stage 1' });
    expect(await p.bus.request(RequestSubjects.liveLessonModify, { liveLessonId: lessonId, stage: 1 })).toEqual({ accepted: true });
    await ready(lessonId, 1);
    const stages = (await p.list('/apis/batch/v1', 'jobs', ns(lessonId)))
      .filter((job) => !job.metadata.deletionTimestamp)
      .map((job) => job.metadata.labels?.stageId);
    expect(new Set(stages)).toEqual(new Set(['1']));
    const before = (await p.data.liveLessons.get(lessonId)).lastActiveAt;
    await expect.poll(() => Date.now()).toBeGreaterThan(before.getTime());
    expect(await p.bus.request(RequestSubjects.liveLessonKeepAlive, { liveLessonId: lessonId })).toEqual({ accepted: true });
    expect((await p.data.liveLessons.get(lessonId)).lastActiveAt.getTime()).toBeGreaterThan(before.getTime());
  });

  it('the real quota controller refuses a pod over the lesson quota', async () => {
    const path = `/api/v1/namespaces/${ns(lessonId)}`;
    await expect
      .poll(async () => ((await p.list('/api/v1', 'resourcequotas', ns(lessonId)))[0]?.status as { hard?: object } | undefined)?.hard, TIMEOUT)
      .toBeDefined();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'over-quota' },
      spec: { containers: [{ name: 'big', image: 'busybox', resources: { requests: { cpu: '100', memory: '1Gi' }, limits: { cpu: '100', memory: '1Gi' } } }] },
    };
    const refused = await p.kube.call('POST', `${path}/pods`, pod);
    expect(refused.code).toBe(403);
    expect(refused.body.message).toMatch(/exceeded quota/);
  });

  it('deletes: the namespace goes through the real namespace controller, then the record', async () => {
    // The row is the request: the deletion is recorded first, as the api and the reaper do.
    await p.data.liveLessons.requestDeletion(lessonId);
    expect(await p.bus.request(RequestSubjects.liveLessonDelete, { liveLessonId: lessonId })).toEqual({ accepted: true });
    await expect.poll(() => p.data.liveLessons.find(lessonId), TIMEOUT).toBeUndefined();
    expect(await p.namespaceExists(ns(lessonId))).toBe(false);
  });
});
