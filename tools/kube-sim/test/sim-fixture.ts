import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { WebSocket } from 'ws';
import { startKubeSim, type KubeSim, type KubeSimOptions } from '../src/index.js';

export interface SimFixture {
  sim: KubeSim;
  config: k8s.KubeConfig;
  kubeconfig: string;
  core: k8s.CoreV1Api;
  batch: k8s.BatchV1Api;
}

/**
 * A kube-sim and real client-node APIs pointed at it through a written kubeconfig. A namespace's
 * `default` ServiceAccount is there when its create answers (`serviceAccountDelayMs: 0`), so specs of
 * other behaviour may create pods at once; the admission race has specs of its own.
 */
export async function startSim(options: KubeSimOptions = {}): Promise<SimFixture> {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kube-sim-')), 'kubeconfig');
  const sim = await startKubeSim({ ...options, faults: { serviceAccountDelayMs: 0, ...options.faults }, kubeconfigPath: kubeconfig });
  const config = new k8s.KubeConfig();
  config.loadFromFile(kubeconfig);
  return { sim, config, kubeconfig, core: config.makeApiClient(k8s.CoreV1Api), batch: config.makeApiClient(k8s.BatchV1Api) };
}

/** The HTTP status a `pods/<name>/exec` WebSocket upgrade gets (101 when it opens), sent with `token` or none. */
export function execUpgradeStatus(sim: KubeSim, path: string, token?: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${sim.url.replace('https', 'wss')}${path}`, ['v5.channel.k8s.io'], {
      ca: sim.ca,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.terminate();
    });
    socket.on('error', () => resolve(undefined));
  });
}

export async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const pod = (name: string, image = 'antidotelabs/utility:latest', port = 22, labels: Record<string, string> = {}): k8s.V1Pod => ({
  metadata: { name, labels },
  spec: { containers: [{ name: 'main', image, ports: [{ containerPort: port }] }] },
});
