import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimFixture } from '../test/sim-fixture.js';

const NS = 'daemons';
const HOUR = 3_600_000;

const daemonSet = (image: string): k8s.V1DaemonSet => ({
  metadata: { name: 'puller', labels: { app: 'puller' } },
  spec: {
    selector: { matchLabels: { app: 'puller' } },
    template: {
      metadata: { labels: { app: 'puller' } },
      spec: {
        initContainers: [{ name: 'pull-0', image, command: ['/prepull/true'] }],
        containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.9' }],
      },
    },
  },
});

describe('DaemonSets', () => {
  let fixture: SimFixture;
  let apps: k8s.AppsV1Api;
  beforeAll(async () => {
    fixture = await startSim({ nodes: 3 });
    apps = fixture.config.makeApiClient(k8s.AppsV1Api);
    await fixture.core.createNamespace({ body: { metadata: { name: NS } } });
  });
  afterAll(() => fixture?.sim.stop());

  const pods = async () =>
    (await fixture.core.listNamespacedPod({ namespace: NS, labelSelector: 'app=puller' })).items.filter((pod) => !pod.metadata?.deletionTimestamp);
  const status = async () => (await apps.readNamespacedDaemonSet({ name: 'puller', namespace: NS })).status;

  it('runs one pod per node, owned by the DaemonSet, init containers first, and counts them in its status', async () => {
    const created = await apps.createNamespacedDaemonSet({ namespace: NS, body: daemonSet('lab/image:1') });
    expect(created.spec?.updateStrategy?.type).toBe('RollingUpdate');
    await expect.poll(async () => (await status())?.numberReady).toBe(3);
    const running = await pods();
    expect(running.map((pod) => pod.spec?.nodeName).sort()).toEqual(['kube-sim-node', 'kube-sim-node-1', 'kube-sim-node-2']);
    for (const pod of running) {
      expect(pod.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'DaemonSet', name: 'puller', uid: created.metadata?.uid, controller: true });
      expect(pod.status?.initContainerStatuses?.[0]?.state?.terminated?.reason).toBe('Completed');
      expect(pod.status?.phase).toBe('Running');
    }
    expect(await status()).toMatchObject({
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      numberReady: 3,
      updatedNumberScheduled: 3,
      numberMisscheduled: 0,
    });
  });

  it('counts pods still pulling as scheduled but not ready', async () => {
    fixture.sim.setFaults({ imagePullDelays: { 'lab/slow': HOUR } });
    const patched = await apps.patchNamespacedDaemonSet(
      { name: 'puller', namespace: NS, body: [{ op: 'replace', path: '/spec/template/spec/initContainers/0/image', value: 'lab/slow:2' }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    expect(patched.metadata?.generation).toBe(2);
    await expect.poll(async () => (await pods()).filter((pod) => pod.metadata?.labels?.['pod-template-generation'] === '2').length).toBe(3);
    await expect
      .poll(async () => await status())
      .toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 3, updatedNumberScheduled: 3, numberReady: 0, observedGeneration: 2 });
    const waiting = (await pods()).map((pod) => pod.status?.initContainerStatuses?.[0]?.state?.waiting?.reason);
    expect(waiting).toEqual(['PodInitializing', 'PodInitializing', 'PodInitializing']);
  });

  it('refuses what the API server refuses: a selector that does not match, restartPolicy Never, a changed selector', async () => {
    const bad = daemonSet('lab/image:1');
    bad.metadata!.name = 'bad';
    bad.spec!.selector = { matchLabels: { app: 'other' } };
    await expect(apps.createNamespacedDaemonSet({ namespace: NS, body: bad })).rejects.toMatchObject({ code: 422 });
    const never = daemonSet('lab/image:1');
    never.metadata!.name = 'never';
    never.spec!.template.spec!.restartPolicy = 'Never';
    await expect(apps.createNamespacedDaemonSet({ namespace: NS, body: never })).rejects.toMatchObject({ code: 422 });
    await expect(
      apps.patchNamespacedDaemonSet(
        { name: 'puller', namespace: NS, body: { spec: { selector: { matchLabels: { app: 'puller', more: 'x' } } } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      ),
    ).rejects.toMatchObject({ code: 422 });
  });

  it('deletes its pods with it', async () => {
    await apps.deleteNamespacedDaemonSet({ name: 'puller', namespace: NS });
    await expect.poll(async () => (await pods()).length).toBe(0);
  });
});
