import { KubeClient, waitForNamespaceGone, waitForServiceAccount } from '@antidote/kube';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeReaperCluster } from './kube-reaper.cluster.js';

const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, finalizers: ['example.com/hold'] },
  spec: { containers: [{ name: 'c', image: 'antidotelabs/utility' }] },
});

describe('KubeReaperCluster on a stuck namespace', () => {
  let sim: KubeSim;
  let kube: KubeClient;
  let cluster: KubeReaperCluster;

  beforeAll(async () => {
    const kubeconfigPath = join(mkdtempSync(join(tmpdir(), 'reaper-cluster-')), 'kubeconfig');
    sim = await startKubeSim({ kubeconfigPath, faults: { stuckNamespaces: ['stuck-*'] } });
    kube = KubeClient.fromConfig({ inCluster: false, kubeconfigPath, insecureSkipTlsVerify: false } as never, {
      timeoutMs: 30_000,
      retries: 2,
      userAgent: 'reaper-cluster-test',
    });
    cluster = new KubeReaperCluster(kube, { instanceId: 'test' } as never);
  });
  afterAll(() => sim.stop());

  it('clears the blocking objects first and finalizes the namespace only once nothing is left in it', async () => {
    const ns = 'stuck-one';
    await kube.create('Namespace', '', { metadata: { name: ns } });
    await waitForServiceAccount(kube, ns, 'default', { timeoutMs: 60_000 });
    await kube.create('Pod', ns, pod('first'));
    await kube.create('Pod', ns, pod('second'));
    await kube.delete('Namespace', '', ns);
    await expect.poll(async () => (await cluster.blockingResources(ns)).length).toBe(2);
    const [first, second] = await cluster.blockingResources(ns);

    // Only one blocker cleared: the other pod is still there, so the namespace must not be finalized.
    expect(await cluster.removeFinalizers(ns, [first])).toEqual({ namespaceFinalized: false, remaining: 1 });
    expect(await kube.read('Namespace', '', ns)).toBeDefined();
    expect(sim.list('pods', ns).map((object) => object.metadata.name)).toEqual([second.name]);

    expect(await cluster.removeFinalizers(ns, [second])).toEqual({ namespaceFinalized: true, remaining: 0 });
    await waitForNamespaceGone(kube, ns, { timeoutMs: 60_000 });
    expect(sim.list('pods', ns)).toEqual([]);
  });
});
