import { connect, type Socket } from 'node:net';
import type { KubeObject } from '../api/object.js';
import { isUnreachable } from '../endpoints/endpoint-exposure.js';
import type { Faults } from '../faults.js';
import { DEFAULT_SHARED_AFTER, processPorts, type Binding } from '../endpoints/port-registry.js';

/** One ClusterIP:port answering: its socket binding (once open) and the connections it forwards. */
interface Forwarding {
  binding?: Binding;
  closed: boolean;
  sockets: Set<Socket>;
}

interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: string;
}
interface ContainerPort {
  name?: string;
  containerPort: number;
}

const keyOf = (object: KubeObject) => `${object.metadata.namespace}/${object.metadata.name}`;
const loopback = (address: unknown): address is string => typeof address === 'string' && address.startsWith('127.');

const ready = (pod: KubeObject): boolean =>
  !pod.metadata.deletionTimestamp &&
  typeof pod.status?.podIP === 'string' &&
  ((pod.status?.conditions as { type: string; status: string }[] | undefined) ?? []).some(
    (condition) => condition.type === 'Ready' && condition.status === 'True',
  );
const selects = (service: KubeObject, pod: KubeObject): boolean => {
  const selector = service.spec?.selector as Record<string, string> | undefined;
  return selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => pod.metadata.labels?.[key] === value);
};
/** A service port's target on one pod: a number, or the name of a container port. */
const targetOf = (port: ServicePort, pod: KubeObject): number | undefined => {
  if (typeof port.targetPort === 'number') return port.targetPort;
  if (port.targetPort === undefined || port.targetPort === '') return port.port;
  const containers = (pod.spec?.containers as { ports?: ContainerPort[] }[] | undefined) ?? [];
  return containers.flatMap((container) => container.ports ?? []).find((candidate) => candidate.name === port.targetPort)?.containerPort;
};

/**
 * kube-proxy for loopback ClusterIPs. The apiserver refuses loopback addresses in Endpoints and
 * EndpointSlices, so the ready pods a Service selects are found here as the endpoint controller would.
 * While a Service port has ready pods, its ClusterIP:port accepts connections and forwards each to one of
 * them (round robin); without any nothing listens there, so a connection is refused as kube-proxy's reject
 * rule does.
 */
export class ServiceProxy {
  private readonly services = new Map<string, KubeObject>();
  /** Open listeners per service key and `clusterIP:port`. */
  private readonly listening = new Map<string, Map<string, Forwarding>>();
  private turn = 0;

  constructor(
    /** The pods running on the simulated nodes, in a namespace. */
    private readonly pods: (namespace: string) => KubeObject[],
    private readonly faults: Faults,
    private readonly log: (message: string) => void,
  ) {}

  readonly serviceHandler = {
    upsert: (service: KubeObject) => this.changed(this.services, service, true),
    remove: (service: KubeObject) => this.changed(this.services, service, false),
  };

  /** A pod of the namespace changed: the services there may forward elsewhere. */
  podsChanged(namespace: string): void {
    for (const [key, service] of this.services) if (service.metadata.namespace === namespace) this.reconcile(key);
  }

  /** After the faults changed: unreachable services stop answering, the others start again. */
  refresh(): void {
    for (const key of new Set([...this.services.keys(), ...this.listening.keys()])) this.reconcile(key);
  }

  closeAll(): void {
    for (const key of [...this.listening.keys()]) this.closeService(key);
  }

  private changed(map: Map<string, KubeObject>, object: KubeObject, present: boolean): void {
    if (present) map.set(keyOf(object), object);
    else map.delete(keyOf(object));
    this.reconcile(keyOf(object));
  }

  /** Where a service port forwards now: the ready pods it selects, at their target port. */
  private backends(key: string, port: ServicePort): { ip: string; port: number }[] {
    const service = this.services.get(key);
    if (!service) return [];
    return this.pods(service.metadata.namespace!)
      .filter((pod) => ready(pod) && selects(service, pod))
      .flatMap((pod) => {
        const target = targetOf(port, pod);
        return target === undefined ? [] : [{ ip: pod.status!.podIP as string, port: target }];
      });
  }

  private reconcile(key: string): void {
    const service = this.services.get(key);
    const clusterIP = service?.spec?.clusterIP;
    const wanted = new Map<string, ServicePort>();
    if (service && loopback(clusterIP) && !isUnreachable(this.faults, service)) {
      for (const port of (service.spec?.ports as ServicePort[] | undefined) ?? []) {
        if ((port.protocol ?? 'TCP') === 'TCP' && this.backends(key, port).length > 0) wanted.set(`${clusterIP}:${port.port}`, port);
      }
    }
    const open = this.listening.get(key) ?? new Map<string, Forwarding>();
    this.listening.set(key, open);
    for (const [address, entry] of open) {
      if (wanted.has(address)) continue;
      this.stop(entry);
      open.delete(address);
    }
    for (const [address, port] of wanted) if (!open.has(address)) open.set(address, this.listen(key, clusterIP as string, port));
    if (open.size === 0) this.listening.delete(key);
  }

  private listen(key: string, clusterIP: string, port: ServicePort): Forwarding {
    const entry: Forwarding = { closed: false, sockets: new Set<Socket>() };
    const accept = (client: Socket) => {
      const backends = this.backends(key, port);
      const backend = backends[this.turn++ % Math.max(1, backends.length)];
      if (!backend) return void client.destroy();
      const upstream = connect(backend.port, backend.ip);
      for (const socket of [client, upstream]) {
        entry.sockets.add(socket);
        socket.on('close', () => entry.sockets.delete(socket));
        socket.on('error', () => (client.destroy(), upstream.destroy()));
      }
      client.pipe(upstream).pipe(client);
    };
    const lost = (error: Error) => this.log(`stopped listening on ${clusterIP}:${port.port} for ${key}: ${error.message}`);
    void processPorts.bind(clusterIP, port.port, accept, { sharedAfter: DEFAULT_SHARED_AFTER, lost }).then(
      (binding) => (entry.closed ? binding.close() : (entry.binding = binding)),
      (error: Error) => this.log(`cannot listen on ${clusterIP}:${port.port} for ${key}: ${error.message}`),
    );
    return entry;
  }

  private stop(entry: Forwarding): void {
    entry.closed = true;
    entry.binding?.close();
    for (const socket of entry.sockets) socket.destroy();
  }

  private closeService(key: string): void {
    for (const entry of this.listening.get(key)?.values() ?? []) this.stop(entry);
    this.listening.delete(key);
  }
}
