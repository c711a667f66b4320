import { EventSubjects, LiveLessonStatus, RequestSubjects, type ReaperActionEvent, type ReaperPassEvent } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { schedulerService } from '@antidote/scheduler';
import { DATABASE_KINDS, INSTANCE, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reaperService } from './reaper.definition.js';

const ns = (id: string) => `${INSTANCE}-${id}`;
const LEASE = `${INSTANCE}-reaper`;

describe.each(DATABASE_KINDS)('reaper on kube-sim, nats-server and %s', (kind) => {
  let p: TestPlatform<'healthchecker' | 'scheduler' | 'reaper'>;
  const actions: ReaperActionEvent[] = [];
  const passes: ReaperPassEvent[] = [];

  beforeAll(async () => {
    p = await startTestPlatform(kind, {
      services: { healthchecker: healthcheckerService, scheduler: schedulerService, reaper: reaperService },
      faults: { stuckNamespaces: [`${INSTANCE}-stuck*`] },
      overrides: { liveLessonTTL: 30, gc: { intervalSeconds: 1, orphanGraceSeconds: 1, stuckTerminatingSeconds: 1, leaseDurationSeconds: 2 } },
    });
    await p.bus.subscribe(EventSubjects.reaperActed, (event) => void actions.push(event));
    await p.bus.subscribe(EventSubjects.reaperPassed, (event) => void passes.push(event));
  });
  afterAll(() => p?.stop());

  const namespaces = () => p.sim.list('namespaces').map((n) => n.metadata.name);

  it('expires an idle live lesson end to end through the scheduler, and keeps an active one', async () => {
    const idle = await p.newLiveLesson('linux-basics');
    const active = await p.newLiveLesson('linux-basics');
    for (const lesson of [idle, active]) await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id });
    for (const lesson of [idle, active]) await expect.poll(async () => (await p.data.liveLessons.find(lesson.id))?.status, { timeout: 20_000 }).toBe(LiveLessonStatus.READY);
    await p.data.liveLessons.updateLastActiveTime(idle.id, new Date(Date.now() - 31 * 60_000));
    await expect.poll(() => p.data.liveLessons.find(idle.id), { timeout: 15_000 }).toBeUndefined();
    expect(namespaces()).not.toContain(ns(idle.id));
    expect(actions).toContainEqual(expect.objectContaining({ action: 'expire-live-lesson', target: idle.id, dryRun: false }));
    expect(await p.data.liveLessons.find(active.id)).toMatchObject({ status: LiveLessonStatus.READY });
    expect(namespaces()).toContain(ns(active.id));
  });

  it('sweeps orphan namespaces with one paged list per pass', async () => {
    p.sim.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns('orphan0002'), labels: { antidoteManaged: 'yes', antidoteId: INSTANCE, liveLesson: 'orphan0002' } } });
    p.sim.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'someone-elses', labels: { antidoteManaged: 'yes', antidoteId: 'other-instance', liveLesson: 'orphan0003' } } });
    await expect.poll(() => namespaces().includes(ns('orphan0002')), { timeout: 15_000 }).toBe(false);
    expect(namespaces()).toContain('someone-elses');
    // The action is published after the delete call returned: the namespace may be gone first.
    await expect.poll(() => actions.some((a) => a.action === 'delete-orphan-namespace' && a.target === ns('orphan0002')), { timeout: 10_000 }).toBe(true);
    // A pass with nothing to do costs exactly one list call, however many namespaces there are.
    const seen = passes.length;
    await expect.poll(() => passes.slice(seen).find((pass) => Object.keys(pass.counts).length === 0)?.kubeCalls, { timeout: 10_000 }).toBe(1);
  });

  it('reports a namespace stuck in Terminating with its finalizers', async () => {
    p.sim.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns('stuck00001'), labels: { antidoteManaged: 'yes', antidoteId: INSTANCE, liveLesson: 'stuck00001' } } });
    await expect.poll(() => actions.some((a) => a.action === 'report-stuck-namespace' && a.target === ns('stuck00001')), { timeout: 20_000 }).toBe(true);
    const report = actions.find((a) => a.action === 'report-stuck-namespace' && a.target === ns('stuck00001'));
    expect(JSON.stringify(report?.details)).toMatch(/kubernetes/);
  });

  it('answers a dry run without changing anything', async () => {
    // Hold the lease for someone else: no replica leads, so no real pass runs meanwhile.
    const leasePath = `${p.sim.url}/apis/coordination.k8s.io/v1/namespaces/prod/leases/${LEASE}`;
    // Lease times are MicroTime (6 fractional digits), as a real server demands.
    const microTime = (date: Date): string => date.toISOString().replace('Z', '000Z');
    const holdLease = async (holderIdentity: string, renewTime: string) => {
      const lease = (await (await fetch(leasePath)).json()) as { spec: Record<string, unknown> };
      const body = JSON.stringify({ ...lease, spec: { ...lease.spec, holderIdentity, renewTime, leaseDurationSeconds: 3600 } });
      expect((await fetch(leasePath, { method: 'PUT', headers: { 'content-type': 'application/json' }, body })).status).toBe(200);
    };
    await expect.poll(async () => (await fetch(leasePath)).status, { timeout: 10_000 }).toBe(200);
    await holdLease('someone-else', microTime(new Date()));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    p.sim.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns('drylesson1'), labels: { antidoteManaged: 'yes', antidoteId: INSTANCE, liveLesson: 'drylesson1' } } });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const reply = await p.bus.request(RequestSubjects.reaperDryRun, {});
    expect(reply.pass.dryRun).toBe(true);
    expect(reply.actions).toContainEqual(expect.objectContaining({ action: 'delete-orphan-namespace', target: ns('drylesson1'), dryRun: true }));
    expect(reply.actions.every((action) => action.dryRun)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(namespaces()).toContain(ns('drylesson1'));
    // Let the lease lapse: a replica takes over and the real pass deletes the orphan.
    await holdLease('someone-else', microTime(new Date(Date.now() - 7200_000)));
    await expect.poll(() => namespaces().includes(ns('drylesson1')), { timeout: 15_000 }).toBe(false);
  });

  it('runs one leader among two replicas and hands over when the leader stops', async () => {
    const second = await p.start('reaper');
    const [first] = p.running('reaper');
    const leads = async (service: { url: string }) => /^antidote_reaper_leader\S* 1$/m.test(await (await fetch(`${service.url}/metrics`)).text());
    const leaders = async () => (await Promise.all([first, second].map(leads))).filter(Boolean).length;
    await expect.poll(leaders, { timeout: 10_000 }).toBe(1);
    const leader = (await leads(first)) ? first : second;
    const standby = leader === first ? second : first;
    const holderBefore = leaseHolder();
    await p.stopService('reaper', leader);
    await expect.poll(() => leads(standby), { timeout: 15_000 }).toBe(true);
    expect(leaseHolder()).not.toBe(holderBefore);
  });

  const leaseHolder = () => (p.sim.list('leases', 'prod').find((lease) => lease.metadata.name === LEASE)?.spec as { holderIdentity?: string } | undefined)?.holderIdentity;
});
