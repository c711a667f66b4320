import type { KubeObject } from '../api/object.js';
import type { AddressPool } from '../endpoints/address-pool.js';
import { containerPorts, type EndpointExposure } from '../endpoints/endpoint-exposure.js';
import type { Faults } from '../faults.js';
import { ImageCache } from '../pods/image-cache.js';
import { JobFailures, startPod, type PodRuntime } from '../pods/pod-lifecycle.js';
import type { PodLogs } from '../pods/pod-logs.js';
import type { KubeApi } from './kube-api.js';
import type { SimNode } from './node-registry.js';

const podPath = (pod: KubeObject) => `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`;

/**
 * The kubelet of the simulated nodes against a real apiserver: runs the pods bound to them with the shared
 * lifecycle (status written to `pods/<name>/status`), and finishes graceful deletions — a pod with a
 * deletionTimestamp is stopped (listeners closed, address freed) and deleted with grace period 0.
 */
export class Kubelet {
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Pods this kubelet has started, by uid; their podIP once Running. */
  private readonly started = new Map<string, string | undefined>();
  private readonly stopping = new Set<string>();
  private stopped = false;
  readonly runtime: PodRuntime;

  constructor(
    private readonly api: KubeApi,
    private readonly nodes: readonly SimNode[],
    faults: Faults,
    private readonly addresses: AddressPool,
    private readonly exposure: EndpointExposure,
    private readonly logs: PodLogs,
    private readonly log: (message: string) => void,
  ) {
    this.runtime = {
      faults,
      jobFailures: new JobFailures(faults),
      images: new ImageCache(),
      setStatus: (pod, status) => this.setStatus(pod, status),
      later: (ms, step) => this.later(ms, step),
      say: (pod, line) => logs.say(pod, line),
      allocateIP: () => addresses.allocate(),
      releaseIP: (ip) => addresses.release(ip),
      hostIP: (pod) => this.nodes.find((node) => node.name === pod.spec?.nodeName)?.address ?? '127.0.0.1',
      listen: (pod, podIP) => exposure.open(pod, { address: podIP, ports: containerPorts(pod) }),
      unlisten: (pod) => exposure.close(pod),
      describeBoot: (pod) => exposure.describeBoot(pod),
      started: (pod) => {
        const ip = pod.status?.podIP as string;
        if (this.stopping.has(pod.metadata.uid!) || this.stopped) {
          exposure.close(pod);
          return addresses.release(ip);
        }
        this.started.set(pod.metadata.uid!, ip);
      },
      // The real job controller watches its pods by itself.
      finished: () => undefined,
    };
  }

  /** A pod bound to one of the nodes appeared or changed. */
  upsert(pod: KubeObject): void {
    const uid = pod.metadata.uid!;
    if (pod.metadata.deletionTimestamp) return this.terminate(pod);
    if (this.started.has(uid) || this.stopped) return;
    const phase = pod.status?.phase as string | undefined;
    // A pod that already ran before this kubelet started (a restart): left as it is.
    if (phase === 'Succeeded' || phase === 'Failed') return;
    this.started.set(uid, undefined);
    this.later(0, () => Promise.resolve(startPod(pod, this.runtime)));
  }

  /** The pod is gone from the apiserver. */
  remove(pod: KubeObject): void {
    this.release(pod);
    this.stopping.delete(pod.metadata.uid!);
    this.logs.forget(pod.metadata.uid!);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private terminate(pod: KubeObject): void {
    const uid = pod.metadata.uid!;
    if (this.stopping.has(uid)) return;
    this.stopping.add(uid);
    for (const container of (pod.spec?.containers as { name: string }[] | undefined) ?? []) this.logs.say(pod, `[${container.name}] stopping`);
    this.release(pod);
    const body = { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid } };
    void this.api.call('DELETE', podPath(pod), body).then(
      (response) => {
        if (response.code >= 300 && response.code !== 404 && response.code !== 409)
          this.log(`delete ${podPath(pod)}: ${response.code} ${response.body.message ?? ''}`);
      },
      (error: unknown) => this.log(`delete ${podPath(pod)}: ${String(error)}`),
    );
  }

  private release(pod: KubeObject): void {
    const uid = pod.metadata.uid!;
    this.exposure.close(pod);
    const ip = this.started.get(uid);
    if (ip) this.addresses.release(ip);
    this.started.delete(uid);
  }

  private async setStatus(pod: KubeObject, status: Record<string, unknown>): Promise<KubeObject | undefined> {
    const uid = pod.metadata.uid!;
    if (this.stopped || this.stopping.has(uid) || !this.started.has(uid)) return undefined;
    const response = await this.api.call('PATCH', `${podPath(pod)}/status`, { metadata: { uid }, status }, 'application/merge-patch+json');
    if (response.code === 200) return response.body;
    if (response.code !== 404 && response.code !== 409) this.log(`status of ${podPath(pod)}: ${response.code} ${response.body.message ?? ''}`);
    return undefined;
  }

  private later(ms: number, step: () => Promise<void>): void {
    if (this.stopped) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.stopped) step().catch((error: unknown) => this.log(`pod step failed: ${error instanceof Error ? error.message : String(error)}`));
      },
      Math.max(1, ms),
    );
    this.timers.add(timer);
  }
}
