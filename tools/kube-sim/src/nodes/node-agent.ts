import type { KubeObject } from '../api/object.js';
import { AddressPool } from '../endpoints/address-pool.js';
import { claimAddressRanges, type AddressRanges } from '../endpoints/address-ranges.js';
import { EndpointExposure } from '../endpoints/endpoint-exposure.js';
import { EndpointListeners } from '../endpoints/endpoint-listeners.js';
import { defaultFaults, type Faults } from '../faults.js';
import { PodLogs } from '../pods/pod-logs.js';
import { Informer } from './informer.js';
import { KubeApi } from './kube-api.js';
import { KubeletServer } from './kubelet-server.js';
import { Kubelet } from './kubelet.js';
import { NodeRegistry, type NodeCapacity, type SimNode } from './node-registry.js';
import { ServiceProxy } from './service-proxy.js';

export interface SimNodesOptions {
  /** A kubeconfig of the real apiserver, with rights on nodes, leases, pods, services and endpoints. */
  kubeconfig: string;
  /** How many nodes (default 1), named `<prefix>-0`, `<prefix>-1`… */
  count?: number;
  prefix?: string;
  capacity?: Partial<NodeCapacity>;
  faults?: Partial<Faults>;
  /** SSH logins accepted by the endpoints (user → password); absent: any login. */
  sshUsers?: Record<string, string>;
  /** Past this many addresses on one port, one wildcard socket serves it (see KubeSimOptions). */
  sharedListenersAfter?: number;
  /** The kubelet API port on each node's address (default 10250). */
  kubeletPort?: number;
  /** Delete the Nodes on stop (default true). */
  removeNodesOnStop?: boolean;
  log?: (message: string) => void;
}

/**
 * Simulated nodes for a real control plane (the KWOK model): Nodes kept Ready through their Leases, a
 * kubelet that runs the pods the scheduler binds to them (with the same lifecycle, listeners and faults as
 * kube-sim), the kubelet API for container logs, and kube-proxy for loopback ClusterIPs.
 */
export class SimNodes {
  readonly faults: Faults;
  readonly ranges: AddressRanges = claimAddressRanges();
  readonly nodes: SimNode[];
  private readonly informers: Informer[] = [];
  private readonly listeners: EndpointListeners;
  private readonly exposure: EndpointExposure;
  private readonly proxy: ServiceProxy;
  private readonly registry: NodeRegistry;
  private readonly kubelet: Kubelet;
  private readonly server: KubeletServer;

  private constructor(
    api: KubeApi,
    private readonly options: SimNodesOptions,
  ) {
    const log = options.log ?? (() => undefined);
    this.faults = { ...defaultFaults(), ...options.faults };
    const addresses = new AddressPool(this.ranges.pods);
    const port = options.kubeletPort ?? 10250;
    this.nodes = Array.from({ length: options.count ?? 1 }, (_, index) => ({
      name: `${options.prefix ?? 'kube-sim-node'}-${index}`,
      address: addresses.allocate(),
      kubeletPort: port,
    }));
    const capacity = { cpu: '64', memory: '256Gi', pods: '250', ...options.capacity };
    this.registry = new NodeRegistry(api, this.nodes, capacity, log);
    this.listeners = new EndpointListeners({ users: options.sshUsers ?? {} }, { sharedAfter: options.sharedListenersAfter });
    const podInformers = () => this.informers.slice(0, this.nodes.length);
    this.exposure = new EndpointExposure(
      (resource) => (resource === '/pods' ? podInformers().flatMap((informer) => informer.objects()) : []),
      this.faults,
      this.listeners,
      log,
    );
    const logs = new PodLogs();
    this.kubelet = new Kubelet(api, this.nodes, this.faults, addresses, this.exposure, logs, log);
    this.proxy = new ServiceProxy(
      (namespace) => podInformers().flatMap((informer) => informer.objects().filter((pod) => pod.metadata.namespace === namespace)),
      this.faults,
      log,
    );
    this.server = new KubeletServer(
      (namespace, name) =>
        podInformers()
          .map((informer) => informer.get(namespace, name))
          .find(Boolean),
      logs,
    );
    const pods = {
      upsert: (pod: KubeObject) => (this.kubelet.upsert(pod), this.proxy.podsChanged(pod.metadata.namespace!)),
      remove: (pod: KubeObject) => (this.kubelet.remove(pod), this.proxy.podsChanged(pod.metadata.namespace!)),
    };
    for (const node of this.nodes)
      this.informers.push(new Informer(api, `/api/v1/pods?fieldSelector=${encodeURIComponent(`spec.nodeName=${node.name}`)}`, pods, log));
    this.informers.push(new Informer(api, '/api/v1/services', this.proxy.serviceHandler, log));
  }

  static async start(options: SimNodesOptions): Promise<SimNodes> {
    const nodes = new SimNodes(KubeApi.fromFile(options.kubeconfig), options);
    try {
      await nodes.server.listen(
        nodes.nodes.map((node) => node.address),
        nodes.nodes[0].kubeletPort,
      );
      await nodes.registry.register();
      for (const informer of nodes.informers) await informer.start();
    } catch (error) {
      await nodes.stop();
      throw error;
    }
    return nodes;
  }

  setFaults(partial: Partial<Faults>): void {
    Object.assign(this.faults, partial);
    this.exposure.refresh();
    this.proxy.refresh();
  }

  resetFaults(): void {
    this.setFaults(defaultFaults());
  }

  async stop(): Promise<void> {
    this.kubelet.stop();
    await Promise.all(this.informers.map((informer) => informer.stop()));
    await this.registry.stop(this.options.removeNodesOnStop ?? true);
    this.proxy.closeAll();
    this.listeners.closeAll();
    await this.server.close();
    this.ranges.release();
  }
}

export const startSimNodes = (options: SimNodesOptions): Promise<SimNodes> => SimNodes.start(options);
