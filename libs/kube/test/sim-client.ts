import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import type { V1Job, V1Pod } from '@kubernetes/client-node';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type KubeClientOptions } from '../src/client/kube-client.js';

export const managed = { antidoteManaged: 'yes' };

export const pod = (name: string, image = 'antidotelabs/utility'): V1Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: managed },
  spec: { containers: [{ name, image, ports: [{ containerPort: 22 }] }] },
});

export const job = (name: string): V1Job => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, labels: managed },
  spec: { backoffLimit: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'configurator', image: 'antidotelabs/configurator' }] } } },
});

/** A kube-sim of its own and a client on it, as the apps make theirs (`options` on top of the test's defaults). */
export async function startSimClient(options: Partial<KubeClientOptions> = {}): Promise<{ sim: KubeSim; kube: KubeClient }> {
  const kubeconfigPath = join(mkdtempSync(join(tmpdir(), 'kube-client-')), 'kubeconfig');
  const sim = await startKubeSim({ kubeconfigPath });
  const defaults = { timeoutMs: 30_000, retries: 3, userAgent: 'antidote-client-test' };
  const kube = KubeClient.fromConfig({ inCluster: false, kubeconfigPath, insecureSkipTlsVerify: false } as never, { ...defaults, ...options });
  return { sim, kube };
}
