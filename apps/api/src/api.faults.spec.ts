import { setTimeout as sleep } from 'node:timers/promises';
import { LiveLessonStatus } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { schedulerService } from '@antidote/scheduler';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { startPostgres, startTestPlatform, type PostgresProcess, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultLedger, type ScenarioOutcome } from '../test/fault-ledger.js';
import { apiService } from './api.definition.js';

type Services = 'healthchecker' | 'scheduler' | 'api';

/**
 * "A request the api accepted is never lost": the api, scheduler and healthchecker in process on a real
 * nats-server, a PostgreSQL of this file's own (so it can be restarted) and kube-sim; learners' requests
 * go through the api over HTTP while one dependency at a time fails. After each fault every accepted
 * live lesson is READY (or, where the fault may break a lesson mid-way, failed with a reason), nothing
 * is stuck, no namespace is orphaned, nothing was created twice.
 */
describe('a request the api accepted is never lost (api, scheduler, healthchecker; nats-server, PostgreSQL, kube-sim)', () => {
  let postgres: PostgresProcess;
  let p: TestPlatform<Services, KubeSim>;
  let ledger: FaultLedger;

  beforeAll(async () => {
    postgres = await startPostgres();
    p = await startTestPlatform('postgres', {
      cluster: startKubeSim,
      services: { healthchecker: healthcheckerService, scheduler: schedulerService, api: apiService },
      databaseUrl: await postgres.createDatabase('faults'),
      overrides: {
        httpPort: 0,
        // Every learner here comes from 127.0.0.1: the per-address session limit is not what this suite tests.
        liveSessionLimit: 0,
        api: { host: '127.0.0.1' },
        // Longer than the longest outage below, so a lesson waits through it rather than timing out.
        timeouts: { podRunningSeconds: 120, reachabilitySeconds: 120, configJobSeconds: 120, namespaceDeleteSeconds: 60 },
        // The Kubernetes retry budget is left at its default (scheduler.kubeRetrySeconds 60): the 30 s
        // outage below is ridden out on it (docs/reliability.md).
        scheduler: { redriveIntervalSeconds: 1, redriveAfterSeconds: 1, claimLeaseSeconds: 5 },
      },
    });
    ledger = new FaultLedger(p, p.running('api')[0].url);
  });
  afterAll(async () => {
    await p?.stop();
    await postgres?.stop();
  });

  const expectNoneLost = (outcome: ScenarioOutcome): void => {
    expect(outcome.accepted.length).toBeGreaterThan(0);
    expect({ lost: outcome.lost, orphans: outcome.orphans, stuck: outcome.stuck, duplicates: outcome.duplicates }).toEqual({
      lost: [],
      orphans: [],
      stuck: [],
      duplicates: [],
    });
  };
  const readyz = async (service: Services) => {
    const response = await fetch(`${p.running(service)[0].url}/readyz`);
    return { status: response.status, ...((await response.json()) as { checks: Record<string, boolean> }) };
  };
  /** Sends `count` requests while `inject` runs once `after` of them were accepted. */
  const underLoad = async (count: number, after: number, inject: () => Promise<void>) => {
    ledger.begin();
    const load = ledger.send(count, 300);
    await expect.poll(() => ledger.accepted.length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(after);
    ledger.faults++;
    await inject();
    await load;
  };

  it('scheduler down for 60 s: the api accepts, and every lesson ends READY once it is back (DB re-drive)', async () => {
    ledger.begin();
    await p.stopService('scheduler');
    ledger.faults++;
    const downAt = Date.now();
    await ledger.send(6, 200);
    expect(ledger.accepted).toHaveLength(6);
    await sleep(Math.max(0, 60_000 - (Date.now() - downAt)));
    const waiting = await p.data.liveLessons.list();
    expect(waiting.filter((lesson) => ledger.accepted.includes(lesson.id)).map((lesson) => lesson.status)).toEqual(Array(6).fill(LiveLessonStatus.INITIALIZED));
    await p.start('scheduler');
    expectNoneLost(await ledger.settle(false, 90_000));
  }, 200_000);

  it('nats-server restarted mid-load: services report not-ready while it is down, reconnect on their own, nothing is lost', async () => {
    await underLoad(8, 3, async () => {
      // Down until both services have said so, then 5 s more of load against a missing bus.
      await p.nats.restart(async () => {
        for (const service of ['scheduler', 'api'] as const) {
          await expect.poll(() => readyz(service), { interval: 100 }).toMatchObject({ status: 503, checks: { nats: false } });
        }
        await new Promise((resolve) => setTimeout(resolve, 5000));
      });
      for (const service of ['scheduler', 'api', 'healthchecker'] as const) {
        await expect.poll(() => readyz(service), { interval: 200 }).toMatchObject({ status: 200, checks: { nats: true } });
      }
    });
    expectNoneLost(await ledger.settle(true, 90_000));
  }, 180_000);

  it('PostgreSQL restarted mid-load (same port and data): every accepted lesson ends READY or failed with a reason', async () => {
    await underLoad(8, 3, () => postgres.restart(3000));
    await expect.poll(() => readyz('scheduler'), { interval: 200 }).toMatchObject({ status: 200, checks: { database: true } });
    expectNoneLost(await ledger.settle(true, 90_000));
  }, 180_000);

  it('Kubernetes API down for 30 s during a small burst: all end READY', async () => {
    ledger.begin();
    await ledger.send(1);
    p.sim.outage(30_000);
    ledger.faults++;
    await ledger.send(2);
    expect(ledger.accepted).toHaveLength(3);
    expectNoneLost(await ledger.settle(false, 120_000));
  }, 180_000);

  it('over all faults: none lost, orphaned or stuck', () => {
    const summary = ledger.summary();
    console.log(summary);
    expect(ledger.outcomes).toHaveLength(4);
    expect(summary).toMatch(/^faults injected 4, requests sent \d+, lost 0, orphans 0, stuck 0$/);
  });
});
