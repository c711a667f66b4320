import type { KubeObject } from '../api/object.js';
import type { KubeApi } from './kube-api.js';

/** A simulated node: its name, the loopback address its kubelet answers on, and that port. */
export interface SimNode {
  name: string;
  address: string;
  kubeletPort: number;
}

/** `coordination.k8s.io` MicroTime: exactly 6 fractional digits (the apiserver refuses 3). */
export const microTime = (date = new Date()): string => date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const LEASE_SECONDS = 40;
/** A kubelet renews every quarter of the lease duration. */
export const LEASE_RENEW_MS = (LEASE_SECONDS * 1000) / 4;

export interface NodeCapacity {
  cpu: string;
  memory: string;
  pods: string;
}

function nodeStatus(node: SimNode, capacity: NodeCapacity): Record<string, unknown> {
  const time = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: time,
    lastTransitionTime: time,
  });
  const resources = { ...capacity, 'ephemeral-storage': '1Ti' };
  return {
    capacity: resources,
    allocatable: resources,
    conditions: [
      condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      condition('Ready', 'True', 'KubeletReady', 'kube-sim kubelet is posting ready status'),
    ],
    // Only an InternalIP: the apiserver dials the first address of its preferred types (Hostname first).
    addresses: [{ type: 'InternalIP', address: node.address }],
    daemonEndpoints: { kubeletEndpoint: { Port: node.kubeletPort } },
    nodeInfo: {
      machineID: '',
      systemUUID: '',
      bootID: '',
      kernelVersion: '',
      osImage: 'kube-sim',
      containerRuntimeVersion: 'kube-sim://1',
      kubeletVersion: 'v1.24.0-kube-sim',
      kubeProxyVersion: 'v1.24.0-kube-sim',
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  };
}

/**
 * Registers the simulated Nodes and keeps them Ready the way a kubelet does: a Lease in kube-node-lease
 * renewed every 10 s (the node lifecycle controller marks a node whose lease lapses NotReady).
 */
export class NodeRegistry {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly api: KubeApi,
    private readonly nodes: readonly SimNode[],
    private readonly capacity: NodeCapacity,
    private readonly log: (message: string) => void,
  ) {}

  async register(): Promise<void> {
    for (const node of this.nodes) {
      const body = {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name: node.name,
          labels: { 'kubernetes.io/hostname': node.name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'kube-sim.antidote.io/node': 'true' },
        },
        spec: {},
      };
      await this.api.must('POST', '/api/v1/nodes', body, [409]);
      const registered = await this.api.must(
        'PATCH',
        `/api/v1/nodes/${node.name}/status`,
        { status: nodeStatus(node, this.capacity) },
        [],
        'application/merge-patch+json',
      );
      await this.renew(node, registered.body);
    }
    this.timer = setInterval(() => void this.renewAll(), LEASE_RENEW_MS);
  }

  /** Stops renewing; with `remove`, deletes the Nodes (PodGC then removes their pods) and their Leases. */
  async stop(remove: boolean): Promise<void> {
    clearInterval(this.timer);
    if (!remove) return;
    for (const node of this.nodes) {
      await this.api.call('DELETE', `/api/v1/nodes/${node.name}`).catch(() => undefined);
      await this.api.call('DELETE', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${node.name}`).catch(() => undefined);
    }
  }

  private async renewAll(): Promise<void> {
    for (const node of this.nodes)
      await this.renew(node).catch((error: unknown) => this.log(`lease of ${node.name}: ${error instanceof Error ? error.message : String(error)}`));
  }

  private async renew(node: SimNode, registered?: KubeObject): Promise<void> {
    const path = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${node.name}`;
    const renewed = await this.api.call('PATCH', path, { spec: { holderIdentity: node.name, renewTime: microTime() } }, 'application/merge-patch+json');
    if (renewed.code !== 404) {
      if (renewed.code !== 200) throw new Error(`${renewed.code} ${renewed.body.message ?? ''}`);
      return;
    }
    const owner = registered ?? (await this.api.must('GET', `/api/v1/nodes/${node.name}`)).body;
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: node.name,
        namespace: 'kube-node-lease',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: owner.metadata.uid! }],
      },
      spec: { holderIdentity: node.name, leaseDurationSeconds: LEASE_SECONDS, renewTime: microTime() },
    };
    await this.api.must('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', lease, [409]);
  }
}
