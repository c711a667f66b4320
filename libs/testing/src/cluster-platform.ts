import type { ServiceDefinition } from '@antidote/runtime';
import type { ClusterObject } from './cluster.port.js';
import { conformanceCluster, type ConformanceCluster } from './kcp.js';
import { kubeRest } from './kube-rest.js';
import { startPlatformOn } from './test-platform.js';

/** Config for a real control plane: the lease where the deployment keeps it, deadlines for a real cluster. */
const CLUSTER_OVERRIDES = {
  timeouts: { podRunningSeconds: 90, reachabilitySeconds: 90, configJobSeconds: 90, namespaceDeleteSeconds: 90 },
  gc: { leaseNamespace: 'antidote' },
};

/** Which identity each app runs with: its own ServiceAccount token, none for apps that never call Kubernetes. */
const kubeconfigOf = (cluster: ConformanceCluster, service: string): string =>
  service === 'scheduler' ? cluster.scheduler : service === 'reaper' ? cluster.reaper : cluster.anonymous;

/**
 * The platform in process (nats-server, SQLite) on the real control plane of the conformance global setup,
 * each app with its own ServiceAccount token; `kube` is the admin's client for the test's own checks.
 */
export async function startClusterPlatform<N extends string>(options: { services: Record<N, ServiceDefinition>; overrides?: Record<string, unknown> }) {
  const cluster = conformanceCluster();
  if (!cluster) throw new Error('no conformance cluster: run through `npm run test:conformance`');
  const overrides = { ...CLUSTER_OVERRIDES, ...options.overrides, gc: { ...CLUSTER_OVERRIDES.gc, ...(options.overrides?.gc as object | undefined) } };
  const platform = await startPlatformOn('sqlite', { services: options.services, overrides }, (service) => kubeconfigOf(cluster, service));
  const kube = kubeRest(cluster.admin);
  return {
    ...platform,
    kube,
    /** Objects of a core (`/api/v1`) or group (`/apis/<group>/<version>`) collection, in a namespace or all. */
    async list(api: string, plural: string, namespace?: string): Promise<ClusterObject[]> {
      const response = await kube.must('GET', `${api}${namespace ? `/namespaces/${namespace}` : ''}/${plural}`);
      return response.body.items ?? [];
    },
    async namespaceExists(name: string): Promise<boolean> {
      return (await kube.call('GET', `/api/v1/namespaces/${name}`)).code === 200;
    },
  };
}

export type ClusterTestPlatform<N extends string = string> = Awaited<ReturnType<typeof startClusterPlatform<N>>>;
