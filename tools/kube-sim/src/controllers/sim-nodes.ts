import type { KubeObject } from '../api/object.js';
import type { ObjectStore } from '../api/store.js';
import { now } from '../pods/pod-lifecycle.js';

/** kube-sim's own nodes: `kube-sim-node` first (the one node of earlier versions), then `kube-sim-node-1`, … */
export const simNodeNames = (count: number): string[] =>
  Array.from({ length: Math.max(1, count) }, (_, index) => (index === 0 ? 'kube-sim-node' : `kube-sim-node-${index}`));

/** A Ready Node as a kubelet registers it (loopback address; kube-sim's pods all live in its loopback ranges). */
export const simNodeObject = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', type: 'kube-sim' } },
  spec: {},
  status: {
    capacity: { cpu: '32', memory: '128Gi', pods: '1000' },
    allocatable: { cpu: '32', memory: '128Gi', pods: '1000' },
    addresses: [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: name },
    ],
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        lastHeartbeatTime: now(),
        lastTransitionTime: now(),
      },
    ],
    nodeInfo: { kubeletVersion: 'v1.30.0-kube-sim', operatingSystem: 'linux', architecture: 'amd64', containerRuntimeVersion: 'kube-sim://1' },
  },
});

/** The node for a new pod (kube-sim's scheduler): the one running the fewest pods, the first of them on a tie. */
export function pickNode(store: ObjectStore): string {
  // The node objects are not copied per pod created.
  const nodes = store.peekSorted('/nodes').map((node) => node.metadata.name!);
  if (nodes.length === 0) return 'kube-sim-node';
  // One node: no pod to count (a count per pod created costs O(pods) at 30,000 pods).
  if (nodes.length === 1) return nodes[0];
  const load = new Map(nodes.map((name) => [name, 0]));
  for (const pod of store.peek('/pods')) {
    const node = pod.spec?.nodeName as string | undefined;
    const phase = pod.status?.phase as string | undefined;
    if (node && load.has(node) && phase !== 'Succeeded' && phase !== 'Failed') load.set(node, load.get(node)! + 1);
  }
  return nodes.reduce((best, name) => (load.get(name)! < load.get(best)! ? name : best), nodes[0]);
}
