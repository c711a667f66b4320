import type { KubeObject } from '../api/object.js';
import { matchesAny, type Faults } from '../faults.js';
import type { EndpointListeners } from './endpoint-listeners.js';

/** Where an object answers: an address and the ports listening there. */
export interface Exposure {
  address: string;
  ports: number[];
}

type ExposureOf = (object: KubeObject) => Exposure | undefined;

/** The ports a pod's containers declare. */
export const containerPorts = (pod: KubeObject): number[] =>
  ((pod.spec?.containers as { ports?: { containerPort: number }[] }[] | undefined) ?? []).flatMap((container) => (container.ports ?? []).map((port) => port.containerPort));

/** A Running pod with a podIP answers on its container ports, unless a container is not running (crash-looping, or it could not start). */
export const podExposure: ExposureOf = (pod) => {
  const address = pod.status?.podIP as string | undefined;
  if (pod.status?.phase !== 'Running' || !address) return undefined;
  const statuses = (pod.status?.containerStatuses as { state?: { waiting?: unknown } }[] | undefined) ?? [];
  if (statuses.some((status) => status.state?.waiting)) return undefined;
  const ports = containerPorts(pod);
  return ports.length > 0 ? { address, ports } : undefined;
};

/** A Service with a ClusterIP answers on its ports. */
export const serviceExposure: ExposureOf = (service) => {
  const address = service.spec?.clusterIP as string | undefined;
  const ports = ((service.spec?.ports as { port: number }[] | undefined) ?? []).map((port) => port.port);
  return address && address !== 'None' && ports.length > 0 ? { address, ports } : undefined;
};

/** Whether a fault's patterns name the object: by object name or by the `podName` label Antidote puts on endpoint pods. */
const names = (patterns: readonly string[], object: KubeObject): boolean =>
  [object.metadata.name, object.metadata.labels?.podName].some((name) => name !== undefined && matchesAny(patterns, name));

/** The `unreachable` fault. */
export const isUnreachable = (faults: Faults, object: KubeObject): boolean => names(faults.unreachable, object);

const EXPOSED: readonly [string, ExposureOf][] = [
  ['/pods', podExposure],
  ['/services', serviceExposure],
];

/** Opens and closes the real listeners of pods and services, honouring the `unreachable` fault. */
export class EndpointExposure {
  /** Pod uid → when its boot ends (`bootDelayMs` after its ports opened). */
  private readonly bootedAt = new Map<string, number>();

  constructor(
    /** The objects of a resource (`/pods`, `/services`) this exposure answers for (in a namespace, or all). */
    private readonly objects: (resource: string, namespace?: string) => Iterable<Readonly<KubeObject>>,
    private readonly faults: Faults,
    private readonly listeners: EndpointListeners,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Starts answering for the object (a no-op when it has nothing to expose or is unreachable on purpose).
   * Resolves to the ports that could not be opened, each with why; the object then answers on none.
   */
  async open(object: KubeObject, exposure: Exposure | undefined): Promise<string[]> {
    if (!exposure || exposure.ports.length === 0 || isUnreachable(this.faults, object)) return [];
    const uid = object.metadata.uid!;
    if (object.kind !== 'Service' && !this.bootedAt.has(uid)) this.bootedAt.set(uid, Date.now() + this.faults.bootDelayMs);
    const identity = { hostname: object.metadata.name!, address: exposure.address, image: this.imageOf(object), booting: () => this.isBooting(object) };
    const where = `${object.kind ?? 'object'} ${object.metadata.namespace}/${object.metadata.name}`;
    const failures = await this.listeners.listen(uid, exposure.address, exposure.ports, (message) => this.log(`${where}: ${message}`), identity);
    if (failures.length > 0) {
      this.listeners.close(uid);
      for (const failure of failures) this.log(`${where}: ${failure}`);
    }
    return failures;
  }

  /**
   * Still booting: named by the `booting` fault, or within `bootDelayMs` of its pod's ports opening (a
   * Service boots with the pod it selects).
   */
  isBooting(object: KubeObject): boolean {
    if (names(this.faults.booting, object)) return true;
    const pod = object.kind === 'Service' ? this.selectedPod(object) : object;
    if (!pod) return false;
    return (object !== pod && names(this.faults.booting, pod)) || Date.now() < (this.bootedAt.get(pod.metadata.uid!) ?? 0);
  }

  /** The image a shell on the object answers as: a pod's first container, or that of the first pod a Service selects. */
  private imageOf(object: KubeObject): string | undefined {
    const pod = object.kind === 'Service' ? this.selectedPod(object) : object;
    return (pod?.spec?.containers as { image?: string }[] | undefined)?.[0]?.image;
  }

  private selectedPod(service: KubeObject): KubeObject | undefined {
    const selector = Object.entries((service.spec?.selector as Record<string, string> | undefined) ?? {});
    if (selector.length === 0) return undefined;
    for (const pod of this.objects('/pods', service.metadata.namespace)) {
      if (pod.metadata.namespace === service.metadata.namespace && selector.every(([key, value]) => pod.metadata.labels?.[key] === value)) return pod;
    }
    return undefined;
  }

  close(object: KubeObject): void {
    this.bootedAt.delete(object.metadata.uid!);
    this.listeners.close(object.metadata.uid!);
  }

  /** After the faults changed: objects now unreachable stop listening, the others (re)start. */
  refresh(): void {
    for (const [resource, exposureOf] of EXPOSED) {
      for (const object of this.objects(resource)) {
        const exposure = exposureOf(object);
        if (!exposure) continue;
        const listening = this.listeners.isListening(object.metadata.uid!);
        if (isUnreachable(this.faults, object)) {
          if (listening) this.close(object);
        } else if (!listening) void this.open(object, exposure);
      }
    }
  }
}
