import { RequestSubjects } from '@antidote/contracts';
import { startKubeSim } from '@antidote/kube-sim';
import { INSTANCE, makeNewLiveLesson, startTestPlatform } from '@antidote/testing';
import { expect, it } from 'vitest';
import { reaperService } from './reaper.definition.js';

const NAMESPACES = Number(process.env.BENCH_NAMESPACES ?? 5000);

/** A reaper pass over 5,000 managed namespaces (half of them orphans): duration and Kubernetes calls. */
it(`plans a pass over ${NAMESPACES} managed namespaces and prints the figures`, async () => {
  const p = await startTestPlatform('sqlite', {
    cluster: startKubeSim,
    services: { reaper: reaperService },
    overrides: { gc: { intervalSeconds: 3600, orphanGraceSeconds: 1, listPageSize: 500 } },
  });
  try {
    for (let i = 0; i < NAMESPACES; i++) {
      const id = `bench${String(i).padStart(5, '0')}`;
      p.sim.create({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: `${INSTANCE}-${id}`, labels: { antidoteManaged: 'yes', antidoteId: INSTANCE, liveLesson: id } },
      });
      if (i % 2 === 0) await p.data.liveLessons.create(makeNewLiveLesson({ id, sessionId: `s${id}`, antidoteId: INSTANCE }));
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const dryRun = () => p.bus.request(RequestSubjects.reaperDryRun, {}, { timeoutMs: 120_000 }).catch(() => undefined);
    await expect.poll(dryRun).toBeDefined();
    const rss = process.memoryUsage().rss;
    const reply = (await dryRun())!;
    const orphans = reply.actions.filter((action) => action.action === 'delete-orphan-namespace').length;
    console.log(
      `bench reaper: pass over ${NAMESPACES} managed namespaces: ${reply.pass.durationMs} ms, ${reply.pass.kubeCalls} Kubernetes calls (page size 500), ` +
        `${orphans} orphans found, RSS +${((process.memoryUsage().rss - rss) / 1024 / 1024).toFixed(0)} MiB`,
    );
    expect(orphans).toBe(NAMESPACES / 2);
  } finally {
    await p.stop();
  }
});
