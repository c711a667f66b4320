import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeSim, type KubeSim } from './index.js';

const podSpec = (image = 'antidotelabs/utility:latest', port = 22): k8s.V1PodSpec => ({
  containers: [{ name: 'main', image, ports: [{ containerPort: port }] }],
});

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('kube-sim through @kubernetes/client-node', () => {
  let sim: KubeSim;
  let config: k8s.KubeConfig;
  let core: k8s.CoreV1Api;

  beforeAll(async () => {
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kube-sim-')), 'kubeconfig');
    // The namespace's ServiceAccount is there at once: these specs create pods right after their namespace.
    sim = await startKubeSim({ kubeconfigPath: kubeconfig, faults: { serviceAccountDelayMs: 0 } });
    config = new k8s.KubeConfig();
    config.loadFromFile(kubeconfig);
    core = config.makeApiClient(k8s.CoreV1Api);
  });
  afterAll(() => sim?.stop());

  it('creates, reads, lists and deletes namespaces and pods', async () => {
    await core.createNamespace({ body: { metadata: { name: 'smoke', labels: { team: 'a' } } } });
    const pod = await core.createNamespacedPod({ namespace: 'smoke', body: { metadata: { name: 'linux1', labels: { app: 'x' } }, spec: podSpec() } });
    expect(pod.metadata?.uid).toBeTruthy();
    const list = await core.listNamespacedPod({ namespace: 'smoke', labelSelector: 'app=x' });
    expect(list.items.map((item) => item.metadata?.name)).toEqual(['linux1']);
    const running = await until(async () => {
      const current = await core.readNamespacedPod({ name: 'linux1', namespace: 'smoke' });
      return current.status?.phase === 'Running' ? current : undefined;
    });
    expect(running.status?.podIP?.startsWith(`${sim.ranges.pods}.`)).toBe(true);
    await core.deleteNamespacedPod({ name: 'linux1', namespace: 'smoke' });
    await expect(core.readNamespacedPod({ name: 'linux1', namespace: 'smoke' })).rejects.toMatchObject({ code: 404 });
  });

  it('answers real TCP connections on a running pod and its service', async () => {
    await core.createNamespace({ body: { metadata: { name: 'sockets' } } });
    await core.createNamespacedPod({ namespace: 'sockets', body: { metadata: { name: 'web', labels: { app: 'web' } }, spec: podSpec('nginx', 80) } });
    const service = await core.createNamespacedService({
      namespace: 'sockets',
      body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
    });
    const clusterIP = service.spec?.clusterIP;
    expect(clusterIP?.startsWith(`${sim.ranges.services}.`)).toBe(true);
    const pod = await until(async () => {
      const current = await core.readNamespacedPod({ name: 'web', namespace: 'sockets' });
      return current.status?.phase === 'Running' ? current : undefined;
    });
    for (const host of [pod.status!.podIP!, clusterIP!]) {
      const response = await until(() =>
        fetch(`http://${host}/`)
          .then((r) => r.status)
          .catch(() => undefined),
      );
      expect(response).toBe(200);
    }
    const closed = await new Promise<boolean>((resolve) => {
      const socket = connect(81, clusterIP);
      socket.on('connect', () => resolve(false));
      socket.on('error', () => resolve(true));
    });
    expect(closed).toBe(true);
  });
});
