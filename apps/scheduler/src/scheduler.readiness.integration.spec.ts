import { LiveLessonStatus, RequestSubjects, type ReadinessCheck } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { DATABASE_KINDS, INSTANCE, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from './scheduler.definition.js';

type Platform = TestPlatform<'healthchecker' | 'scheduler', KubeSim>;
const services = { healthchecker: healthcheckerService, scheduler: schedulerService };
const ns = (id: string) => `${INSTANCE}-${id}`;
/** What kube-sim's vqfx shell answers to `show version` once booted (`Model: kube-sim`); while booting, an error line. */
const showVersion: ReadinessCheck = { type: 'ssh', command: 'show version', match: 'Model: \\S+' };

/** A platform whose vqfx image declares the readiness check (whatever the sample curriculum says), and a way to create lessons. */
async function platform(kind: (typeof DATABASE_KINDS)[number], reachabilitySeconds: number) {
  const p: Platform = await startTestPlatform(kind, {
    cluster: startKubeSim,
    services,
    overrides: { timeouts: { podRunningSeconds: 60, reachabilitySeconds, configJobSeconds: 60, namespaceDeleteSeconds: 60 } },
  });
  await p.data.curriculum.insertImages([{ ...(await p.data.curriculum.getImage('vqfx')), readiness: showVersion }]);
  const create = async () => {
    const lesson = await p.newLiveLesson('network-automation');
    expect(await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id })).toEqual({ accepted: true });
    return lesson.id;
  };
  return { p, create };
}

describe.each(DATABASE_KINDS)('readiness gates READY (kube-sim, nats-server, healthchecker, %s)', (kind) => {
  describe('an endpoint that boots until the test says so', () => {
    let p: Platform;
    let create: () => Promise<string>;
    // A deadline far beyond the test's own steps: the boot ends when the fault is switched off, not by a timer.
    beforeAll(async () => ({ p, create } = await platform(kind, 600)));
    afterAll(() => p?.stop());

    it('keeps the lesson in BOOTING while vqfx1 answers SSH but is not ready, then goes on to READY once it has booted', async () => {
      p.sim.setFaults({ booting: ['vqfx1'] });
      const id = await create();
      // vqfx2 and linux1 are up; vqfx1 answers on port 22 (reachable) but its readiness check fails: held in BOOTING.
      await expect
        .poll(async () => {
          const lesson = await p.data.liveLessons.find(id);
          return { status: lesson?.status, error: lesson?.error, healthy: lesson?.healthyTests, total: lesson?.totalTests };
        })
        .toEqual({ status: LiveLessonStatus.BOOTING, error: false, healthy: 2, total: 3 });

      p.sim.setFaults({ booting: [] });
      await expect.poll(async () => (await p.data.liveLessons.find(id))?.status).toBe(LiveLessonStatus.READY);
      const ready = await p.data.liveLessons.find(id);
      expect(ready).toMatchObject({ error: false, healthyTests: 3, totalTests: 3 });
      // The row is written before the event is published: wait for the event, then check the order.
      await expect.poll(() => p.eventsOf(id).at(-1)?.status).toBe(LiveLessonStatus.READY);
      expect(p.eventsOf(id).map((event) => event.status)).toEqual([LiveLessonStatus.BOOTING, LiveLessonStatus.CONFIGURATION, LiveLessonStatus.READY]);
    });
  });

  describe('an endpoint that never becomes ready', () => {
    let p: Platform;
    let create: () => Promise<string>;
    beforeAll(async () => ({ p, create } = await platform(kind, 10)));
    afterAll(() => p?.stop());

    it('fails the lesson at BOOTING when the deadline passes, naming the endpoint and what its readiness check saw', async () => {
      p.sim.setFaults({ booting: ['vqfx1'] });
      const id = await create();
      await expect.poll(async () => (await p.data.liveLessons.find(id))?.error, { timeout: 120_000 }).toBe(true);
      p.sim.setFaults({ booting: [] });
      const failed = await p.data.liveLessons.find(id);
      expect(failed).toMatchObject({ status: LiveLessonStatus.BOOTING, error: true });
      const reason = failed!.failureReason ?? '';
      expect(reason).toMatch(
        /^vqfx1 did not become ready within 10 s — vqfx1: reachable, not ready — ready check "show version" output did not match \/Model: \\S\+\/ yet: "error: the system is still booting, please try again later"/,
      );
      expect(reason).not.toMatch(/vqfx2|linux1/);
      await expect.poll(() => p.sim.list('namespaces').some((n) => n.metadata.name === ns(id))).toBe(false);
    });
  });
});
