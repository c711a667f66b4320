import { readCurriculum } from '@antidote/curriculum';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { INSTANCE, makeImage, metricSample as sample, metricsOf, SAMPLE_CURRICULUM, startTestPlatform, type TestPlatform } from '@antidote/testing';
import type { V1DaemonSet } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from '../scheduler.definition.js';

const NAME = `antidote-prepull-${INSTANCE}`;

/**
 * The scheduler keeps one pre-pull DaemonSet in the platform namespace (`prod`, the secrets namespace
 * here) in step with the curriculum in the database: kube-sim over HTTP, a real nats-server, SQLite.
 * The curriculum is imported after the scheduler started (the test platform imports it then), and
 * changed later, as `antictl curriculum import` does.
 */
describe('pre-pull DaemonSet', () => {
  let p: TestPlatform<'scheduler', KubeSim>;
  const daemonSets = () => p.sim.list('daemonsets', 'prod') as unknown as V1DaemonSet[];
  const pulled = (set: V1DaemonSet | undefined) => (set?.spec?.template.spec?.initContainers ?? []).slice(1).map((container) => container.image);
  const kubeCalls = (key: string) => p.sim.counters.snapshot().byKey[key] ?? 0;

  beforeAll(async () => {
    p = await startTestPlatform('sqlite', {
      cluster: startKubeSim,
      services: { scheduler: schedulerService },
      overrides: { scheduler: { prePull: { enabled: true, resyncSeconds: 1 } } },
    });
  });
  afterAll(() => p?.stop());

  it('exists after the curriculum import, with one init container per image, running on the node', async () => {
    const images = (await p.data.curriculum.listImages()).map((image) => `antidotelabs/${image.slug}:latest`);
    const expected = [...new Set([...images, 'bash', 'antidotelabs/configurator:latest'])].sort();
    await expect.poll(() => pulled(daemonSets()[0])).toEqual(expected);
    expect(daemonSets().map((set) => set.metadata?.name)).toEqual([NAME]);
    await expect.poll(() => daemonSets()[0]?.status?.numberReady).toBe(1);
    const pods = p.sim.list('pods', 'prod').filter((pod) => pod.metadata.ownerReferences?.[0]?.name === NAME);
    expect(pods).toHaveLength(1);
    const metrics = () => metricsOf(p.running('scheduler')[0].url);
    await expect.poll(async () => sample(await metrics(), 'antidote_prepull_nodes', 'state="ready"')).toBe(1);
    expect(sample(await metrics(), 'antidote_prepull_images', '')).toBe(expected.length);
    expect(kubeCalls('create daemonsets 201')).toBe(1);
  });

  it('is updated in place, not duplicated nor re-created, when a new import changes the images', async () => {
    const before = daemonSets()[0];
    const read = await readCurriculum(SAMPLE_CURRICULUM, { tier: 'prod', instanceId: INSTANCE });
    const curriculum = read.curriculum!;
    await p.data.curriculum.replaceCurriculum({ ...curriculum, images: [...curriculum.images, makeImage({ slug: 'frr' })] });
    await expect.poll(() => pulled(daemonSets()[0])).toContain('antidotelabs/frr:latest');
    const after = daemonSets();
    expect(after).toHaveLength(1);
    expect(after[0].metadata?.uid).toBe(before.metadata?.uid);
    expect(after[0].metadata?.generation).toBe((before.metadata?.generation ?? 1) + 1);
    expect(pulled(after[0])).toHaveLength(pulled(before).length + 1);
    expect(kubeCalls('create daemonsets 201')).toBe(1);
    expect(kubeCalls('update daemonsets 200')).toBe(1);
    expect(kubeCalls('delete daemonsets 200')).toBe(0);
    // The old pod goes, a new one (of the new template) pulls and runs.
    await expect
      .poll(() => daemonSets()[0]?.status)
      .toMatchObject({ updatedNumberScheduled: 1, numberReady: 1, observedGeneration: after[0].metadata?.generation });
  });
});
