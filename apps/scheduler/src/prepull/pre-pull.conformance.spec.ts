import { readCurriculum } from '@antidote/curriculum';
import { conformanceCluster, INSTANCE, makeImage, SAMPLE_CURRICULUM, startClusterPlatform, type ClusterTestPlatform } from '@antidote/testing';
import type { V1DaemonSet, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerService } from '../scheduler.definition.js';

const NAMESPACE = 'prod';
const NAME = `antidote-prepull-${INSTANCE}`;
const PATH = `/apis/apps/v1/namespaces/${NAMESPACE}/daemonsets/${NAME}`;
const TIMEOUT = { timeout: 90_000, interval: 200 };

/**
 * The pre-pull DaemonSet on a real control plane: the scheduler, with its own ServiceAccount token bound
 * by deploy/k8s/base/rbac.yaml, creates it in the platform namespace (`prod` here) and updates it in place
 * when the curriculum's images change; the real DaemonSet controller puts its pods on kube-sim's nodes,
 * whose kubelet runs their init containers (one per image) and reports them ready.
 */
describe.skipIf(!conformanceCluster())('pre-pull DaemonSet on a real control plane, with real RBAC', () => {
  let p: ClusterTestPlatform<'scheduler'>;

  beforeAll(async () => {
    p = await startClusterPlatform({ services: { scheduler: schedulerService }, overrides: { scheduler: { prePull: { enabled: true, resyncSeconds: 1 } } } });
  });
  afterAll(async () => {
    await p?.stop();
    // Its pods go with it (background deletion), so no later suite's node gets one.
    await p?.kube.call('DELETE', PATH, { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' });
  });

  const daemonSet = async () => {
    const response = await p.kube.call('GET', PATH);
    return response.code === 200 ? (response.body as unknown as V1DaemonSet) : undefined;
  };
  const pulled = (set: V1DaemonSet | undefined) => (set?.spec?.template.spec?.initContainers ?? []).slice(1).map((container) => container.image);
  const pods = async () => (await p.list('/api/v1', 'pods', NAMESPACE)) as unknown as V1Pod[];
  /** Every node that should run it runs a pod of its current template, ready. */
  const rolledOut = async () => {
    const set = await daemonSet();
    const status = set?.status;
    return (
      status !== undefined &&
      status.desiredNumberScheduled > 0 &&
      status.observedGeneration === set?.metadata?.generation &&
      status.updatedNumberScheduled === status.desiredNumberScheduled &&
      status.numberReady === status.desiredNumberScheduled
    );
  };
  /** The DaemonSet's pods not being deleted: their node, phase and pulled images. */
  const running = async () =>
    (await pods())
      .filter((pod) => pod.metadata?.ownerReferences?.[0]?.name === NAME && !pod.metadata.deletionTimestamp)
      .map((pod) => ({
        node: pod.spec?.nodeName,
        phase: pod.status?.phase,
        images: (pod.spec?.initContainers ?? []).slice(1).map((container) => container.image),
      }));

  it('is created in the platform namespace with one init container per image, and runs on every kube-sim node', async () => {
    const images = (await p.data.curriculum.listImages()).map((image) => `antidotelabs/${image.slug}:latest`);
    const expected = [...new Set([...images, 'bash', 'antidotelabs/configurator:latest'])].sort();
    await expect.poll(async () => pulled(await daemonSet()), TIMEOUT).toEqual(expected);
    await expect.poll(rolledOut, TIMEOUT).toBe(true);
    const set = (await daemonSet())!;
    expect(set.metadata?.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'antidote-scheduler' });
    const placed = await running();
    expect(placed).toHaveLength(set.status!.desiredNumberScheduled);
    for (const pod of placed) expect(pod).toEqual({ node: expect.stringMatching(/^kube-sim-/), phase: 'Running', images: expected });
  });

  it('is updated in place (same uid, next generation) when a new import changes the images, and its pods replaced', async () => {
    const before = (await daemonSet())!;
    const read = await readCurriculum(SAMPLE_CURRICULUM, { tier: 'prod', instanceId: INSTANCE });
    const curriculum = read.curriculum!;
    await p.data.curriculum.replaceCurriculum({ ...curriculum, images: [...curriculum.images, makeImage({ slug: 'frr' })] });
    await expect.poll(async () => pulled(await daemonSet()), TIMEOUT).toContain('antidotelabs/frr:latest');
    const after = (await daemonSet())!;
    expect(after.metadata).toMatchObject({ uid: before.metadata?.uid, generation: (before.metadata?.generation ?? 1) + 1 });
    await expect.poll(rolledOut, TIMEOUT).toBe(true);
    const replaced = async () => {
      const placed = await running();
      return (
        placed.length === (await daemonSet())?.status?.desiredNumberScheduled &&
        placed.every((pod) => pod.phase === 'Running' && pod.images.includes('antidotelabs/frr:latest'))
      );
    };
    await expect.poll(replaced, TIMEOUT).toBe(true);
  });
});
