import { EventSubjects, LiveLessonStatus, RequestSubjects, type ReaperActionEvent } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { schedulerService } from '@antidote/scheduler';
import { conformanceCluster, INSTANCE, startClusterPlatform, type ClusterTestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reaperService } from './reaper.definition.js';

const ns = (id: string) => `${INSTANCE}-${id}`;
const TIMEOUT = { timeout: 90_000, interval: 200 };
const LEASE = `/apis/coordination.k8s.io/v1/namespaces/antidote/leases/${INSTANCE}-reaper`;
const managed = (name: string, liveLesson: string, instance = INSTANCE) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { antidoteManaged: 'yes', antidoteId: instance, liveLesson } },
});

/**
 * The reaper (with the scheduler and healthchecker) on a real control plane, with its own ServiceAccount
 * token bound by deploy/k8s/base/rbac.yaml: its Lease in the `antidote` namespace, namespaces deleted by
 * the real namespace controller.
 */
describe.skipIf(!conformanceCluster())('reaper on a real control plane, with real RBAC', () => {
  let p: ClusterTestPlatform<'healthchecker' | 'scheduler' | 'reaper'>;
  const actions: ReaperActionEvent[] = [];

  beforeAll(async () => {
    p = await startClusterPlatform({
      services: { healthchecker: healthcheckerService, scheduler: schedulerService, reaper: reaperService },
      overrides: { liveLessonTTL: 30, gc: { intervalSeconds: 1, orphanGraceSeconds: 1, stuckTerminatingSeconds: 1, leaseDurationSeconds: 3 } },
    });
    await p.bus.subscribe(EventSubjects.reaperActed, (event) => void actions.push(event));
  });
  afterAll(() => p?.stop());

  it('expires an idle live lesson end to end through the scheduler, and keeps an active one', async () => {
    const idle = await p.newLiveLesson('linux-basics');
    const active = await p.newLiveLesson('linux-basics');
    for (const lesson of [idle, active]) await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id });
    for (const lesson of [idle, active])
      await expect.poll(async () => (await p.data.liveLessons.find(lesson.id))?.status, TIMEOUT).toBe(LiveLessonStatus.READY);
    await p.data.liveLessons.updateLastActiveTime(idle.id, new Date(Date.now() - 31 * 60_000));
    await expect.poll(() => p.data.liveLessons.find(idle.id), TIMEOUT).toBeUndefined();
    expect(await p.namespaceExists(ns(idle.id))).toBe(false);
    expect(actions).toContainEqual(expect.objectContaining({ action: 'expire-live-lesson', target: idle.id, dryRun: false }));
    expect(await p.data.liveLessons.find(active.id)).toMatchObject({ status: LiveLessonStatus.READY });
    expect(await p.namespaceExists(ns(active.id))).toBe(true);
  });

  it('sweeps orphan namespaces through the real namespace controller, and leaves another instance’s', async () => {
    await p.kube.must('POST', '/api/v1/namespaces', managed(ns('orphan0002'), 'orphan0002'));
    await p.kube.must('POST', '/api/v1/namespaces', managed('someone-elses', 'orphan0003', 'other-instance'));
    await expect.poll(() => p.namespaceExists(ns('orphan0002')), TIMEOUT).toBe(false);
    expect(actions).toContainEqual(expect.objectContaining({ action: 'delete-orphan-namespace', target: ns('orphan0002') }));
    expect(await p.namespaceExists('someone-elses')).toBe(true);
  });

  it('reports a namespace held in Terminating by an object’s finalizer, with what blocks it', async () => {
    const name = ns('stuck00001');
    await p.kube.must('POST', '/api/v1/namespaces', managed(name, 'stuck00001'));
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'held', finalizers: ['antidote.test/hold'] }, type: 'Opaque' };
    await p.kube.must('POST', `/api/v1/namespaces/${name}/secrets`, secret);
    await p.kube.must('DELETE', `/api/v1/namespaces/${name}`);
    await expect.poll(() => actions.find((action) => action.action === 'report-stuck-namespace' && action.target === name), TIMEOUT).toBeDefined();
    const report = actions.find((action) => action.action === 'report-stuck-namespace' && action.target === name);
    expect(JSON.stringify(report?.details)).toMatch(/kubernetes/);
    expect(JSON.stringify(report?.details)).toMatch(/held/);
    expect(await p.namespaceExists(name)).toBe(true);
    // Let it go: the namespace controller finishes once the finalizer is cleared.
    await p.kube.must('PATCH', `/api/v1/namespaces/${name}/secrets/held`, { metadata: { finalizers: null } }, [], 'application/merge-patch+json');
    await expect.poll(() => p.namespaceExists(name), TIMEOUT).toBe(false);
  });

  it('two replicas elect one leader through a real Lease, and the standby takes over when the leader stops', async () => {
    const second = await p.start('reaper');
    const [first] = p.running('reaper');
    const leads = async (service: { url: string }) => /^antidote_reaper_leader\S* 1$/m.test(await (await fetch(`${service.url}/metrics`)).text());
    const leaders = async () => (await Promise.all([first, second].map(leads))).filter(Boolean).length;
    await expect.poll(leaders, TIMEOUT).toBe(1);
    const holder = async () => ((await p.kube.must('GET', LEASE)).body.spec as { holderIdentity?: string }).holderIdentity;
    // A consistent view: the leader still leads after its Lease was read.
    let leader = first;
    let holderBefore: string | undefined;
    await expect
      .poll(async () => {
        leader = (await leads(first)) ? first : second;
        holderBefore = await holder();
        return Boolean(holderBefore) && (await leads(leader));
      }, TIMEOUT)
      .toBe(true);
    const standby = leader === first ? second : first;
    await p.stopService('reaper', leader);
    await expect.poll(() => leads(standby), TIMEOUT).toBe(true);
    await expect.poll(holder, TIMEOUT).not.toBe(holderBefore);
    expect((await p.kube.must('GET', LEASE)).body.spec).toMatchObject({ renewTime: expect.stringMatching(/\.\d{6}Z$/) });
  });
});
