import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLUSTER_ENV, KCP_ENV, KCP_KUBECONFIG_ENV, kcpDir, prepareCluster, startKcp } from './kcp.js';

/**
 * Vitest global setup of the conformance suites: a real control plane for the whole run (the one
 * test-conformance.sh started, or one of its own), prepared as the platform deploys it; the next global
 * setup (tools/kube-sim/test/sim-nodes.global-setup.ts) gives it kube-sim's nodes as its kubelets.
 * Without kcp the suites skip — except in CI (env CI), where that fails.
 */
export default async function setup(): Promise<() => Promise<void>> {
  let kubeconfig = process.env[KCP_KUBECONFIG_ENV];
  let stopKcp = () => Promise.resolve();
  const dir = kubeconfig ? undefined : kcpDir();
  if (!kubeconfig && !dir) {
    const reason = `no control plane: neither ${KCP_ENV} nor <repo>/../shared/kcp holds kcp's start.sh`;
    if (process.env.CI) throw new Error(`${reason} (CI must run the conformance tier)`);
    process.stderr.write(`conformance: ${reason}; the conformance tests are skipped\n`);
    return () => Promise.resolve();
  }
  const work = mkdtempSync(join(tmpdir(), 'antidote-conformance-'));
  if (dir) {
    const kcp = await startKcp(dir, join(work, 'kcp'));
    kubeconfig = kcp.kubeconfig;
    stopKcp = kcp.stop;
  }
  const admin = kubeconfig!;
  const cluster = await prepareCluster(admin, join(work, 'kubeconfigs'));
  process.env[CLUSTER_ENV] = JSON.stringify(cluster);
  return async () => {
    delete process.env[CLUSTER_ENV];
    await stopKcp();
    rmSync(work, { recursive: true, force: true });
  };
}
