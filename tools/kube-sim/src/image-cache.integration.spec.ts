import type * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startSim, type SimFixture } from '../test/sim-fixture.js';

const HOUR = 3_600_000;
const NS = 'pulls';

describe('image pulls and each node’s image cache', () => {
  let fixture: SimFixture;
  beforeAll(async () => {
    fixture = await startSim({ nodes: 2 });
    await fixture.core.createNamespace({ body: { metadata: { name: NS } } });
  });
  afterAll(() => fixture?.sim.stop());

  const read = (name: string) => fixture.core.readNamespacedPod({ name, namespace: NS });
  const waitingReason = async (name: string) => (await read(name)).status?.containerStatuses?.[0]?.state?.waiting?.reason;
  const phase = async (name: string) => (await read(name)).status?.phase;
  const events = async (name: string) =>
    (await fixture.core.listNamespacedEvent({ namespace: NS, fieldSelector: `involvedObject.name=${name}` })).items
      .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
      .map((event: k8s.CoreV1Event) => `${event.reason}: ${event.message}`);
  const create = (name: string, image: string, nodeName?: string) => {
    const body = pod(name, image);
    if (nodeName) body.spec!.nodeName = nodeName;
    return fixture.core.createNamespacedPod({ namespace: NS, body });
  };

  it('spreads pods over the nodes and lists them as Ready Nodes', async () => {
    const nodes = (await fixture.core.listNode()).items.map((node) => node.metadata?.name);
    expect(nodes).toEqual(['kube-sim-node', 'kube-sim-node-1']);
  });

  it('keeps a pod in ContainerCreating while its image is pulled; a pod of a present image runs meanwhile', async () => {
    fixture.sim.setFaults({ imagePullDelays: { 'slow/image': HOUR } });
    await create('slow', 'slow/image:1', 'kube-sim-node');
    await expect.poll(() => waitingReason('slow')).toBe('ContainerCreating');
    await expect.poll(() => events('slow')).toEqual(['Pulling: Pulling image "slow/image:1"']);
    await create('quick', 'quick/image:1', 'kube-sim-node');
    await expect.poll(() => phase('quick')).toBe('Running');
    expect(await phase('slow')).toBe('Pending');
    expect(await waitingReason('slow')).toBe('ContainerCreating');
    const conditions = (await read('slow')).status?.conditions?.map((condition) => `${condition.type}=${condition.status}`);
    expect(conditions).toEqual(['PodScheduled=True', 'Initialized=False', 'ContainersReady=False', 'Ready=False']);
  });

  it('pulls an image once per node: a later pod on that node does not wait, one on another node does', async () => {
    fixture.sim.setFaults({ imagePullDelays: { 'cached/image': 1 } });
    await create('first', 'cached/image:1', 'kube-sim-node');
    await expect.poll(() => phase('first')).toBe('Running');
    expect(await events('first')).toEqual(['Pulling: Pulling image "cached/image:1"', 'Pulled: Successfully pulled image "cached/image:1" in 1ms']);
    // From now on a pull would take an hour: only the node's cache lets a pod run.
    fixture.sim.setFaults({ imagePullDelays: { 'cached/image': HOUR } });
    await create('elsewhere', 'cached/image:1', 'kube-sim-node-1');
    await create('again', 'cached/image:1', 'kube-sim-node');
    await expect.poll(() => phase('again')).toBe('Running');
    expect(await events('again')).toEqual(['Pulled: Container image "cached/image:1" already present on machine']);
    await expect.poll(() => waitingReason('elsewhere')).toBe('ContainerCreating');
    expect(await events('elsewhere')).toEqual(['Pulling: Pulling image "cached/image:1"']);
    const images = (await (await fixture.sim.fetch(`/_sim/images`)).json()) as Record<string, string[]>;
    expect(images['kube-sim-node']).toContain('cached/image:1');
    expect(images['kube-sim-node-1']).not.toContain('cached/image:1');
  });

  it('leaves pods that need no pull as they were: no Events, Running', async () => {
    fixture.sim.setFaults({ imagePullDelays: {} });
    await create('plain', 'plain/image:1');
    await expect.poll(() => phase('plain')).toBe('Running');
    expect(await events('plain')).toEqual([]);
  });
});
