import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../api/object.js';
import { KubeApi } from './kube-api.js';
import { startSimNodes, type SimNodes } from './node-agent.js';

/** The cluster of the conformance global setup (libs/testing/src/kcp.global-setup.ts), absent without kcp. */
const cluster = process.env.ANTIDOTE_TEST_CLUSTER ? (JSON.parse(process.env.ANTIDOTE_TEST_CLUSTER) as { admin: string }) : undefined;
const NS = 'kube-sim-nodes-test';
const TIMEOUT = { timeout: 60_000, interval: 100 };

/** Answers the first bytes a server sends on connect (an SSH banner), or the error code. */
const banner = (host: string, port: number) =>
  new Promise<string>((resolve) => {
    const socket = createConnection({ host, port });
    socket.once('data', (data) => (resolve(data.toString('utf8').split('\r\n')[0]), socket.destroy()));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });

/** kube-sim nodes as the kubelets of a real control plane: what the apiserver and a client see. */
describe.skipIf(!cluster)('kube-sim nodes on a real control plane', () => {
  let nodes: SimNodes;
  let kube: KubeApi;
  const pod = (name: string, image: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: name } },
    spec: { nodeSelector: { 'kubernetes.io/hostname': nodes.nodes[0].name }, containers: [{ name: 'main', image, ports: [{ containerPort: 22 }] }], ...extra },
  });
  const get = async (name: string): Promise<KubeObject | undefined> => {
    const response = await kube.call('GET', `/api/v1/namespaces/${NS}/pods/${name}`);
    return response.code === 200 ? response.body : undefined;
  };

  beforeAll(async () => {
    nodes = await startSimNodes({ kubeconfig: cluster!.admin, prefix: 'kube-sim-nodes-test', faults: { podStartDelayMs: 20 } });
    kube = KubeApi.fromFile(cluster!.admin);
    await kube.must('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }, [409]);
    // Pods are admitted once the namespace's ServiceAccount exists (created by the controller-manager).
    await vi.waitFor(async () => expect((await kube.call('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).code).toBe(200), TIMEOUT);
  });
  afterAll(() => nodes?.stop());

  it('registers a Ready node whose Lease it renews in MicroTime', async () => {
    const node = (await kube.must('GET', `/api/v1/nodes/${nodes.nodes[0].name}`)).body;
    expect((node.status?.conditions as { type: string; status: string }[]).find((condition) => condition.type === 'Ready')?.status).toBe('True');
    const lease = (await kube.must('GET', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${nodes.nodes[0].name}`)).body;
    expect(lease.spec).toMatchObject({ holderIdentity: nodes.nodes[0].name, renewTime: expect.stringMatching(/\.\d{6}Z$/) });
  });

  it('runs a pod the scheduler binds to it: Running on a loopback podIP with a real SSH listener, its log read through the apiserver', async () => {
    await kube.must('POST', `/api/v1/namespaces/${NS}/pods`, pod('ssh', 'vqfx'));
    await expect.poll(async () => (await get('ssh'))?.status?.phase, TIMEOUT).toBe('Running');
    const running = (await get('ssh'))!;
    expect(running.status).toMatchObject({ podIP: expect.stringMatching(/^127\./), hostIP: nodes.nodes[0].address });
    expect(await banner(running.status!.podIP as string, 22)).toMatch(/^SSH-2.0/);
    const log = await kube.call('GET', `/api/v1/namespaces/${NS}/pods/ssh/log?container=main`);
    expect(log.code).toBe(200);
    expect(log.body.message).toMatch(/\[main\] started vqfx/);
  });

  it('forwards a Service’s loopback ClusterIP to the pod it selects', async () => {
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'ssh' },
      spec: { selector: { app: 'ssh' }, ports: [{ name: 'ssh', port: 2022, targetPort: 22 }] },
    };
    const clusterIP = (await kube.must('POST', `/api/v1/namespaces/${NS}/services`, service)).body.spec?.clusterIP as string;
    expect(clusterIP).toMatch(/^127\.96\./);
    await expect.poll(() => banner(clusterIP, 2022), TIMEOUT).toMatch(/^SSH-2.0/);
  });

  it('shows an image pull failure as the kubelet does', async () => {
    nodes.setFaults({ imagePullFailure: ['no-such-image'] });
    await kube.must('POST', `/api/v1/namespaces/${NS}/pods`, pod('pull', 'no-such-image'));
    const reason = async () =>
      ((await get('pull'))?.status?.containerStatuses as { state: { waiting?: { reason: string } } }[] | undefined)?.[0]?.state.waiting?.reason;
    await expect.poll(reason, TIMEOUT).toBe('ImagePullBackOff');
    nodes.setFaults({ imagePullFailure: [] });
  });

  it('runs a Job’s pod to Succeeded, and the real job controller completes the Job', async () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'config' },
      spec: {
        backoffLimit: 0,
        template: {
          spec: {
            restartPolicy: 'Never',
            nodeSelector: { 'kubernetes.io/hostname': nodes.nodes[0].name },
            containers: [{ name: 'config', image: 'configurator' }],
          },
        },
      },
    };
    await kube.must('POST', `/apis/batch/v1/namespaces/${NS}/jobs`, job);
    const complete = async () =>
      ((await kube.must('GET', `/apis/batch/v1/namespaces/${NS}/jobs/config`)).body.status?.conditions as { type: string }[] | undefined)?.map(
        (condition) => condition.type,
      );
    await expect.poll(complete, TIMEOUT).toContain('Complete');
  });

  it('finishes a graceful deletion: the pod is gone, its listener closed', async () => {
    const podIP = (await get('ssh'))!.status!.podIP as string;
    await kube.must('DELETE', `/api/v1/namespaces/${NS}/pods/ssh`);
    await expect.poll(() => get('ssh'), TIMEOUT).toBeUndefined();
    expect(await banner(podIP, 22)).toBe('ECONNREFUSED');
  });
});
