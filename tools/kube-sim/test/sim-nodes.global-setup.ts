import { basename } from 'node:path';
import { conformanceCluster } from '@antidote/testing';
import { startSimNodes } from '../src/index.js';

/**
 * Vitest global setup of the conformance suites, after libs/testing's kcp.global-setup.ts (which made the
 * cluster): kube-sim's nodes act as the real control plane's kubelets for the whole run. Nothing without a cluster.
 */
export default async function setup(project: { config: { root: string } }): Promise<() => Promise<void>> {
  const cluster = conformanceCluster();
  if (!cluster) return () => Promise.resolve();
  const nodes = await startSimNodes({
    kubeconfig: cluster.admin,
    prefix: `kube-sim-${basename(project.config.root)}`,
    faults: { podStartDelayMs: 50, jobRunDelayMs: 50 },
    log: (message) => process.stderr.write(`kube-sim nodes: ${message}\n`),
  });
  return () => nodes.stop();
}
