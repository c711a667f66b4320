import type { KubeObject } from '../api/object.js';
import { matchesAny, type Faults } from '../faults.js';
import { describeBoot, planBoot, profileOf, stageAt, type BootPlan, type BootStage } from './boot-profile.js';
import { ConnectionLog, type EndpointConnections } from './connection-log.js';
import type { EndpointHost, EndpointListeners } from './endpoint-listeners.js';

/** Where an object answers: an address and the ports listening there. */
export interface Exposure {
  address: string;
  ports: number[];
}

type ExposureOf = (object: KubeObject) => Exposure | undefined;

/** The ports a pod's containers declare. */
export const containerPorts = (pod: KubeObject): number[] =>
  ((pod.spec?.containers as { ports?: { containerPort: number }[] }[] | undefined) ?? []).flatMap((container) =>
    (container.ports ?? []).map((port) => port.containerPort),
  );

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

/** What `GET /_sim/endpoints` tells of one answering pod or Service. */
export interface EndpointReport {
  kind: string;
  namespace?: string;
  name?: string;
  address: string;
  image?: string;
  stage: BootStage;
  /** The boot of the pod (a Service's: the pod it selects), times in ms from its start. */
  boot?: BootPlan;
  connections: EndpointConnections;
}

/** Opens and closes the real listeners of pods and services, honouring the `unreachable` fault and the pods' boot profiles. */
export class EndpointExposure {
  /** Pod uid → its boot (a boot profile, or `bootDelayMs`), planned when its ports first opened. */
  private readonly boots = new Map<string, BootPlan>();
  /** Connections each endpoint accepted, by port and boot stage. */
  readonly connections = new ConnectionLog();
  private readonly addresses = new Map<string, string>();

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
    if (object.kind !== 'Service' && !this.boots.has(uid)) this.planBoot(object);
    this.addresses.set(uid, exposure.address);
    const host: EndpointHost = {
      hostname: object.metadata.name!,
      address: exposure.address,
      image: this.imageOf(object),
      stage: () => this.stageOf(object),
      connected: (port, stage) => this.connections.record(uid, port, stage),
    };
    const where = `${object.kind ?? 'object'} ${object.metadata.namespace}/${object.metadata.name}`;
    const failures = await this.listeners.listen(uid, exposure.address, exposure.ports, (message) => this.log(`${where}: ${message}`), host);
    if (failures.length > 0) {
      this.listeners.close(uid);
      for (const failure of failures) this.log(`${where}: ${failure}`);
    }
    return failures;
  }

  /** The pod's boot from now: the first boot profile matching its image, else `bootDelayMs` (if any). */
  private planBoot(pod: KubeObject): void {
    const image = this.imageOf(pod) ?? '';
    const match = profileOf(this.faults.bootProfiles, image);
    const profile = match ?? (this.faults.bootDelayMs > 0 ? (['bootDelayMs', { portMs: 0, loginMs: 0, cliMs: this.faults.bootDelayMs }] as const) : undefined);
    if (profile) this.boots.set(pod.metadata.uid!, planBoot(profile[0], profile[1], Date.now()));
  }

  /** The pod log's line about its boot (undefined: ready as soon as its ports open). */
  describeBoot(pod: KubeObject): string | undefined {
    const plan = this.boots.get(pod.metadata.uid!);
    return plan && describeBoot(plan);
  }

  /**
   * Where the boot of the object stands: that of its pod's plan (a Service boots with the pod it selects),
   * held at `booting` at the most by the `booting` fault naming either.
   */
  stageOf(object: KubeObject): BootStage {
    const pod = object.kind === 'Service' ? this.selectedPod(object) : object;
    const plan = pod && this.boots.get(pod.metadata.uid!);
    const stage = plan ? stageAt(plan, Date.now()) : 'ready';
    const held = names(this.faults.booting, object) || (pod !== undefined && pod !== object && names(this.faults.booting, pod));
    return held && stage === 'ready' ? 'booting' : stage;
  }

  /** Still booting (any stage before ready). */
  isBooting(object: KubeObject): boolean {
    return this.stageOf(object) !== 'ready';
  }

  /** Every pod and Service answering (in a namespace, or all): its boot stage and the connections it accepted. */
  report(namespace?: string): EndpointReport[] {
    return EXPOSED.flatMap(([resource]) =>
      [...this.objects(resource, namespace)].flatMap((object) => {
        const uid = object.metadata.uid!;
        const address = this.addresses.get(uid);
        if (!address || !this.listeners.isListening(uid)) return [];
        const pod = object.kind === 'Service' ? this.selectedPod(object) : object;
        const boot = pod && this.boots.get(pod.metadata.uid!);
        const { name, namespace: ns } = object.metadata;
        return [
          {
            kind: object.kind ?? '',
            namespace: ns,
            name,
            address,
            image: this.imageOf(object),
            stage: this.stageOf(object),
            ...(boot ? { boot } : {}),
            connections: this.connections.of(uid),
          },
        ];
      }),
    );
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
    const uid = object.metadata.uid!;
    this.boots.delete(uid);
    this.addresses.delete(uid);
    this.connections.forget(uid);
    this.listeners.close(uid);
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
