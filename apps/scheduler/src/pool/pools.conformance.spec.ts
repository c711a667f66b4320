import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { conformanceCluster, INSTANCE, startClusterPlatform, type ClusterTestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from '../scheduler.definition.js';

type Platform = ClusterTestPlatform<'healthchecker' | 'scheduler'>;
const ns = (id: string) => `${INSTANCE}-${id}`;
const LESSON = 'linux-basics';
const SESSION = 'learner0001';
const TIMEOUT = { timeout: 90_000, interval: 200 };

/**
 * A warm pool on a real control plane (kube-apiserver, controller-manager, scheduler; kube-sim's nodes as
 * kubelets), the scheduler with its own ServiceAccount token bound by deploy/k8s/base/rbac.yaml: a member
 * is built to READY through the normal CREATE, a learner's claim labels its namespace (a merge PATCH the
 * real RBAC must allow), and the pool refills beside it.
 */
describe.skipIf(!conformanceCluster())('warm pools on a real control plane, with real RBAC', () => {
  let p: Platform;

  beforeAll(async () => {
    p = await startClusterPlatform({
      services: { healthchecker: healthcheckerService, scheduler: schedulerService },
      overrides: { scheduler: { poolIntervalSeconds: 1 }, warmPools: { [LESSON]: { size: 1, maxAge: 0 } } },
    });
  });
  afterAll(async () => {
    // The members the stopped scheduler leaves behind: their namespaces go (not waited for), as an operator's cleanup would.
    const left = p
      ? await p.kube.must('GET', `/api/v1/namespaces?labelSelector=${encodeURIComponent(`antidoteId=${INSTANCE},lessonSlug=${LESSON}`)}`)
      : undefined;
    await p?.stop();
    for (const namespace of left?.body.items ?? []) await p.kube.call('DELETE', `/api/v1/namespaces/${namespace.metadata.name}`);
  });

  const readyMembers = async () =>
    (await p.data.pools.members()).filter((m) => m.lessonSlug === LESSON && m.status === LiveLessonStatus.READY && !m.error && !m.deleteRequestedAt);
  const labelsOf = async (id: string) => (await p.kube.must('GET', `/api/v1/namespaces/${ns(id)}`)).body.metadata.labels;

  it('brings a member to READY at stage 0: its pods run on the nodes, its namespace labelled for the pool', async () => {
    await expect.poll(async () => (await readyMembers()).length, TIMEOUT).toBe(1);
    const [member] = await readyMembers();
    expect(member).toMatchObject({ currentStage: 0, configuredStage: 0, pool: true, sessionId: `pool-${member.id}` });
    expect(await labelsOf(member.id)).toMatchObject({ liveLesson: member.id, lessonSlug: LESSON, liveSession: `pool-${member.id}` });
    const pods = await p.list('/api/v1', 'pods', ns(member.id));
    expect(pods.length).toBeGreaterThan(0);
    for (const pod of pods) expect(pod).toMatchObject({ spec: { nodeName: expect.stringMatching(/^kube-sim-/) }, status: { phase: 'Running' } });
  });

  it('binds a claimed member to the learner’s session: the namespace labels patched under the scheduler’s ServiceAccount; the pool refills', async () => {
    let claimed: Awaited<ReturnType<Platform['data']['pools']['claim']>>;
    await expect.poll(async () => (claimed = await p.data.pools.claim(LESSON, SESSION)) !== undefined, TIMEOUT).toBe(true);
    expect(claimed).toMatchObject({ sessionId: SESSION, status: LiveLessonStatus.READY, pool: false });
    expect(await p.bus.request(RequestSubjects.liveLessonBind, { liveLessonId: claimed!.id })).toEqual({ accepted: true });
    expect(await labelsOf(claimed!.id)).toMatchObject({
      liveSession: SESSION,
      liveLesson: claimed!.id,
      antidoteManaged: 'yes',
      lastAccessed: expect.stringMatching(/^\d+$/),
    });
    await expect.poll(async () => (await readyMembers()).filter((m) => m.id !== claimed!.id).length, TIMEOUT).toBe(1);
    expect(await p.data.liveLessons.find(claimed!.id)).toMatchObject({ sessionId: SESSION, status: LiveLessonStatus.READY, pool: false });
  });
});
