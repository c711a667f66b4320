import { EventSubjects, LiveLessonStatus, RequestSubjects, type ReaperActionEvent, type ReaperPassEvent } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { schedulerService } from '@antidote/scheduler';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { DATABASE_KINDS, INSTANCE, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reaperService } from './reaper.definition.js';
import { microTime } from './leader/kube-lease.store.js';

const ns = (id: string) => `${INSTANCE}-${id}`;
const LEASE = `${INSTANCE}-reaper`;

describe.each(DATABASE_KINDS)('reaper on kube-sim, nats-server and %s', (kind) => {
  let p: TestPlatform<'healthchecker' | 'scheduler' | 'reaper', KubeSim>;
  const actions: ReaperActionEvent[] = [];
  const passes: ReaperPassEvent[] = [];

  beforeAll(async () => {
    p = await startTestPlatform(kind, {
      cluster: startKubeSim,
      services: { healthchecker: healthcheckerService, scheduler: schedulerService, reaper: reaperService },
      faults: { stuckNamespaces: [`${INSTANCE}-stuck*`] },
      overrides: { liveLessonTTL: 30, gc: { intervalSeconds: 1, orphanGraceSeconds: 1, stuckTerminatingSeconds: 1, leaseDurationSeconds: 2 } },
    });
    await p.bus.subscribe(EventSubjects.reaperActed, (event) => void actions.push(event));
    await p.bus.subscribe(EventSubjects.reaperPassed, (event) => void passes.push(event));
  });
  afterAll(() => p?.stop());

  const namespaces = () => p.sim.list('namespaces').map((n) => n.metadata.name);

  it('expires an idle live lesson end to end through the scheduler, and keeps an active one', { timeout: 300_000 }, async () => {
    const idle = await p.newLiveLesson('linux-basics');
    const active = await p.newLiveLesson('linux-basics');
    for (const lesson of [idle, active]) await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id });
    for (const lesson of [idle, active])
      await expect.poll(async () => (await p.data.liveLessons.find(lesson.id))?.status, { timeout: 180_000 }).toBe(LiveLessonStatus.READY);
    await p.data.liveLessons.updateLastActiveTime(idle.id, new Date(Date.now() - 31 * 60_000));
    // The reaper publishes its action after the scheduler was asked: wait for the event, not only for its effect.
    await expect.poll(() => actions.some((a) => a.action === 'expire-live-lesson' && a.target === idle.id && !a.dryRun)).toBe(true);
    await expect.poll(() => p.data.liveLessons.find(idle.id)).toBeUndefined();
    expect(namespaces()).not.toContain(ns(idle.id));
    expect(await p.data.liveLessons.find(active.id)).toMatchObject({ status: LiveLessonStatus.READY });
    expect(namespaces()).toContain(ns(active.id));
  });

  it("deletes a session that holds no lab once idle for sessionIdleTTL (1 h by default, not liveSessionTTL's 24 h)", async () => {
    const hour = 60 * 60_000;
    const sessions = { idle: `idle-${kind}`, recent: `recent-${kind}` };
    for (const id of Object.values(sessions)) await p.data.liveSessions.create({ id, sourceIp: '127.0.0.1' });
    const withLab = await p.newLiveLesson('linux-basics');
    await p.data.liveSessions.touch(sessions.idle, new Date(Date.now() - hour - 60_000));
    await p.data.liveSessions.touch(sessions.recent, new Date(Date.now() - hour + 10 * 60_000));
    await p.data.liveSessions.touch(withLab.sessionId, new Date(Date.now() - 2 * hour));
    await expect.poll(() => actions.some((a) => a.action === 'delete-session' && a.target === sessions.idle), { timeout: 30_000 }).toBe(true);
    expect(await p.data.liveSessions.find(sessions.idle)).toBeUndefined();
    expect(await p.data.liveSessions.find(sessions.recent)).toBeDefined();
    expect(await p.data.liveSessions.find(withLab.sessionId)).toBeDefined();
    await p.data.liveLessons.delete(withLab.id);
  });

  it('sweeps orphan namespaces with one paged list per pass', async () => {
    p.sim.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns('orphan0002'), labels: { antidoteManaged: 'yes', antidoteId: INSTANCE, liveLesson: 'orphan0002' } },
    });
    p.sim.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'someone-elses', labels: { antidoteManaged: 'yes', antidoteId: 'other-instance', liveLesson: 'orphan0003' } },
    });
    // The namespace is gone before the reaper's event arrives: wait for the event.
    await expect.poll(() => actions.some((a) => a.action === 'delete-orphan-namespace' && a.target === ns('orphan0002'))).toBe(true);
    expect(namespaces()).not.toContain(ns('orphan0002'));
    expect(namespaces()).toContain('someone-elses');
    // A pass with nothing to do costs exactly one list call, however many namespaces there are.
    const seen = passes.length;
    await expect.poll(() => passes.slice(seen).find((pass) => Object.keys(pass.counts).length === 0)?.kubeCalls).toBe(1);
  });

  it('reports a namespace stuck in Terminating with its finalizers', async () => {
    p.sim.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns('stuck00001'), labels: { antidoteManaged: 'yes', antidoteId: INSTANCE, liveLesson: 'stuck00001' } },
    });
    await expect.poll(() => actions.some((a) => a.action === 'report-stuck-namespace' && a.target === ns('stuck00001'))).toBe(true);
    const report = actions.find((a) => a.action === 'report-stuck-namespace' && a.target === ns('stuck00001'));
    expect(JSON.stringify(report?.details)).toMatch(/kubernetes/);
  });

  it('runs one leader among two replicas and hands over when the leader stops', async () => {
    const second = await p.start('reaper');
    const [first] = p.running('reaper');
    const leads = async (service: { url: string }) => /^antidote_reaper_leader\S* 1$/m.test(await (await fetch(`${service.url}/metrics`)).text());
    const leaders = async () => (await Promise.all([first, second].map(leads))).filter(Boolean).length;
    await expect.poll(leaders).toBe(1);
    // A consistent view: the leader still leads after its Lease was read (2 s leases may move on a loaded machine).
    let leader = first;
    let holderBefore: string | undefined;
    await expect
      .poll(async () => {
        leader = (await leads(first)) ? first : second;
        holderBefore = leaseHolder();
        return holderBefore !== undefined && (await leads(leader));
      })
      .toBe(true);
    const standby = leader === first ? second : first;
    await p.stopService('reaper', leader);
    await expect.poll(() => leads(standby)).toBe(true);
    expect(leaseHolder()).not.toBe(holderBefore);
  });

  const leaseHolder = () =>
    (p.sim.list('leases', 'prod').find((lease) => lease.metadata.name === LEASE)?.spec as { holderIdentity?: string } | undefined)?.holderIdentity;
});

/**
 * The dry run, with a reaper that cannot lead: another holder has the Lease for an hour before the
 * reaper starts, so no real pass runs and nobody writes the Lease until the test lets it lapse.
 */
describe.each(DATABASE_KINDS)('reaper dry run on kube-sim, nats-server and %s', (kind) => {
  let p: TestPlatform<'reaper', KubeSim>;
  const held = {
    holderIdentity: 'someone-else',
    leaseDurationSeconds: 3600,
    acquireTime: microTime(new Date()),
    renewTime: microTime(new Date()),
    leaseTransitions: 0,
  };

  beforeAll(async () => {
    p = await startTestPlatform(kind, {
      cluster: startKubeSim,
      services: { reaper: reaperService },
      objects: [{ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: LEASE, namespace: 'prod' }, spec: held }],
      overrides: { gc: { intervalSeconds: 1, orphanGraceSeconds: 0, leaseDurationSeconds: 2 } },
    });
  });
  afterAll(() => p?.stop());

  it('answers a dry run without changing anything; the orphan goes once a replica leads', async () => {
    p.sim.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns('drylesson1'), labels: { antidoteManaged: 'yes', antidoteId: INSTANCE, liveLesson: 'drylesson1' } },
    });
    const reply = await p.bus.request(RequestSubjects.reaperDryRun, {});
    expect(reply.pass.dryRun).toBe(true);
    expect(reply.actions).toContainEqual(expect.objectContaining({ action: 'delete-orphan-namespace', target: ns('drylesson1'), dryRun: true }));
    expect(reply.actions.every((action) => action.dryRun)).toBe(true);
    // A dry run that acted would have deleted it before replying.
    expect(p.sim.list('namespaces').find((n) => n.metadata.name === ns('drylesson1'))?.metadata).not.toHaveProperty('deletionTimestamp');
    // Let the lease lapse (nobody else writes it meanwhile): the reaper takes over and its pass deletes the orphan.
    const leasePath = `/apis/coordination.k8s.io/v1/namespaces/prod/leases/${LEASE}`;
    const lease = (await (await p.sim.fetch(leasePath)).json()) as Record<string, unknown>;
    const lapsed = JSON.stringify({ ...lease, spec: { ...held, renewTime: microTime(new Date(Date.now() - 7200_000)) } });
    expect((await p.sim.fetch(leasePath, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: lapsed })).status).toBe(200);
    await expect.poll(() => p.sim.list('namespaces').some((n) => n.metadata.name === ns('drylesson1'))).toBe(false);
  });
});
