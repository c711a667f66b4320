import type { KubeObject } from '../api/object.js';
import { matchesAny, matchesPattern, type Faults } from '../faults.js';
import { pullDelayOf, type ImageCache } from './image-cache.js';
import { pullImages } from './image-pull.js';

export interface Container {
  name: string;
  image?: string;
  ports?: { containerPort: number }[];
}

/** A timestamp as the API shows it (seconds). */
export const now = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export const containersOf = (pod: KubeObject, field: 'containers' | 'initContainers'): Container[] => (pod.spec?.[field] as Container[] | undefined) ?? [];
export const isJobPod = (pod: KubeObject): boolean => pod.metadata.ownerReferences?.some((owner) => owner.kind === 'Job') ?? false;

export const waiting = (container: Container, reason: string, message: string) => ({
  name: container.name,
  image: container.image,
  imageID: '',
  ready: false,
  started: false,
  restartCount: 0,
  state: { waiting: { reason, message } },
});
const running = (container: Container) => ({
  name: container.name,
  image: container.image,
  imageID: `kube-sim://${container.image}`,
  containerID: `kube-sim://${container.name}`,
  ready: true,
  started: true,
  restartCount: 0,
  state: { running: { startedAt: now() } },
});
const terminated = (container: Container, exitCode: number, reason: string) => ({
  name: container.name,
  image: container.image,
  imageID: `kube-sim://${container.image}`,
  containerID: `kube-sim://${container.name}`,
  ready: false,
  started: false,
  restartCount: 0,
  state: { terminated: { exitCode, reason, startedAt: now(), finishedAt: now() } },
});

/** The job-failure fault: the first `times` pods of a matching Job fail (counted per Job uid). */
export class JobFailures {
  private readonly failed = new Map<string, number>();
  constructor(private readonly faults: Faults) {}

  shouldFail(pod: KubeObject): boolean {
    const jobName = pod.metadata.labels?.['job-name'] ?? '';
    const uid = pod.metadata.labels?.['controller-uid'] ?? '';
    const rule = this.faults.jobFailures.find((candidate) => matchesPattern(candidate.pattern, jobName));
    if (!rule) return false;
    const failed = this.failed.get(uid) ?? 0;
    if (failed >= rule.times) return false;
    this.failed.set(uid, failed + 1);
    return true;
  }

  forget(jobUid: string): void {
    this.failed.delete(jobUid);
  }
}

/** Where a pod runs: kube-sim's own store, or a real apiserver reached by the node agent. */
export interface PodRuntime {
  readonly faults: Faults;
  readonly jobFailures: JobFailures;
  /** The images each node holds (the first pod of an image on a node pulls it). */
  readonly images: ImageCache;
  /** Records a kubelet Event about the pod (`Pulling`, `Pulled`); optional. */
  event?(pod: KubeObject, reason: string, message: string, type?: 'Normal' | 'Warning'): void;
  /** Merges `status` into the pod's status; the updated pod, or undefined when it is gone. */
  setStatus(pod: KubeObject, status: Record<string, unknown>): Promise<KubeObject | undefined>;
  /** Runs `step` after `ms` (unless stopped). */
  later(ms: number, step: () => Promise<void>): void;
  /** Appends a line to the pod's log (`[container] …`). */
  say(pod: KubeObject, line: string): void;
  allocateIP(): string;
  releaseIP(ip: string): void;
  hostIP(pod: KubeObject): string;
  /**
   * Opens the pod's container ports on its podIP, before it is reported Running; resolves to the ports
   * that could not be opened, each with why (the pod then cannot start).
   */
  listen(pod: KubeObject, podIP: string): Promise<string[]>;
  /** The pod's listeners are no longer wanted (it went away while they opened). */
  unlisten(pod: KubeObject): void;
  /** How the pod's device boots once its ports are open (a line for its log), if it does not answer at once. */
  describeBoot?(pod: KubeObject): string | undefined;
  /** The pod's status holds its podIP: Running (its ports answer), or unable to start. */
  started?(pod: KubeObject): void;
  /** A Job's pod ended (kube-sim's job controller reacts; a real one watches by itself). */
  finished(pod: KubeObject, succeeded: boolean): void;
}

/**
 * What a kubelet does with a new pod: init containers, image pull (per node, cached: `imagePullDelayMs`,
 * `imagePullDelays`; see pods/image-pull.ts), start
 * (`podStartDelayMs`), Running with a loopback podIP on which the container ports really listen; Job pods
 * run for `jobRunDelayMs` and then succeed or fail. Faults: image pull failure, crash loop, init failure.
 */
export function startPod(pod: KubeObject, runtime: PodRuntime): void {
  const { faults } = runtime;
  const containers = containersOf(pod, 'containers');
  const inits = containersOf(pod, 'initContainers');
  for (const container of inits) runtime.say(pod, `[${container.name}] init container started (${container.image})`);
  if ([...inits, ...containers].some((container) => matchesAny(faults.initFailure, container.image ?? ''))) {
    runtime.say(pod, `[${inits[0]?.name ?? 'init'}] error: init script failed with exit code 1`);
    runtime.later(0, async () => {
      const failed = await runtime.setStatus(pod, {
        phase: isJobPod(pod) ? 'Failed' : 'Pending',
        initContainerStatuses: inits.map((container) => terminated(container, 1, 'Error')),
        containerStatuses: containers.map((container) => waiting(container, 'PodInitializing', '')),
      });
      if (failed && isJobPod(pod)) runtime.finished(failed, false);
    });
    return;
  }
  const pullFailure = containers.find((container) => matchesAny(faults.imagePullFailure, container.image ?? ''));
  const creating = (reason: (container: Container) => ReturnType<typeof waiting>) => ({
    initContainerStatuses: inits.map((container) => terminated(container, 0, 'Completed')),
    containerStatuses: containers.map(reason),
  });
  if (pullFailure) {
    const message = `Failed to pull image "${pullFailure.image}": rpc error: code = NotFound desc = failed to pull and unpack image: not found`;
    const backOff = `Back-off pulling image "${pullFailure.image}"`;
    runtime.later(pullDelayOf(faults, pullFailure.image ?? ''), async () => {
      await runtime.setStatus(
        pod,
        creating((c) => (c === pullFailure ? waiting(c, 'ErrImagePull', message) : waiting(c, 'ContainerCreating', ''))),
      );
      runtime.later(
        50,
        async () =>
          void (await runtime.setStatus(
            pod,
            creating((c) => (c === pullFailure ? waiting(c, 'ImagePullBackOff', backOff) : waiting(c, 'ContainerCreating', ''))),
          )),
      );
    });
    return;
  }
  pullImages(pod, runtime, () => runtime.later(faults.podStartDelayMs, () => run(pod, containers, inits, runtime)));
}

async function run(pod: KubeObject, containers: Container[], inits: Container[], runtime: PodRuntime): Promise<void> {
  const podIP = runtime.allocateIP();
  const crashing = containers.find((container) => matchesAny(runtime.faults.crash, container.image ?? ''));
  const failures = crashing ? [] : await runtime.listen(pod, podIP);
  if (failures.length > 0) return cannotStart(pod, containers, inits, podIP, failures, runtime);
  for (const container of containers)
    runtime.say(pod, `[${container.name}] started ${container.image}${container === crashing ? '; exited with code 1: segmentation fault' : ''}`);
  const boot = runtime.describeBoot?.(pod);
  if (boot) runtime.say(pod, `[${containers[0]?.name ?? 'main'}] ${boot}`);
  const updated = await runtime.setStatus(pod, {
    phase: 'Running',
    podIP,
    podIPs: [{ ip: podIP }],
    hostIP: runtime.hostIP(pod),
    startTime: pod.status?.startTime ?? now(),
    conditions: conditions((condition) => !crashing || !condition.includes('Ready')),
    initContainerStatuses: inits.map((container) => terminated(container, 0, 'Completed')),
    containerStatuses: containers.map((container) =>
      container === crashing
        ? {
            ...waiting(container, 'CrashLoopBackOff', `back-off 40s restarting failed container=${container.name}`),
            restartCount: 3,
            lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: now() } },
          }
        : running(container),
    ),
  });
  if (!updated) {
    runtime.unlisten(pod);
    runtime.releaseIP(podIP);
    return;
  }
  runtime.started?.(updated);
  if (isJobPod(pod)) runtime.later(runtime.faults.jobRunDelayMs, () => finishJobPod(updated, containers, runtime));
}

const conditions = (holds: (condition: string) => boolean) =>
  ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((condition) => ({
    type: condition,
    status: holds(condition) ? 'True' : 'False',
    lastProbeTime: null,
    lastTransitionTime: now(),
  }));

/**
 * A port of the pod could not be opened (no file descriptor left, the address taken): its containers
 * cannot start — RunContainerError with why, as a kubelet reports a container its runtime failed to
 * start — and an Event says so. Never Running with nothing listening.
 */
async function cannotStart(
  pod: KubeObject,
  containers: Container[],
  inits: Container[],
  podIP: string,
  failures: string[],
  runtime: PodRuntime,
): Promise<void> {
  const message = `cannot open the pod's ports: ${failures.join('; ')}`;
  for (const container of containers) runtime.say(pod, `[${container.name}] error: ${message}`);
  runtime.event?.(pod, 'Failed', `Error: ${message}`, 'Warning');
  const updated = await runtime.setStatus(pod, {
    phase: 'Pending',
    podIP,
    podIPs: [{ ip: podIP }],
    hostIP: runtime.hostIP(pod),
    startTime: pod.status?.startTime ?? now(),
    conditions: conditions((condition) => !condition.includes('Ready')),
    initContainerStatuses: inits.map((container) => terminated(container, 0, 'Completed')),
    containerStatuses: containers.map((container) => waiting(container, 'RunContainerError', message)),
  });
  if (updated) runtime.started?.(updated);
  else runtime.releaseIP(podIP);
}

async function finishJobPod(pod: KubeObject, containers: Container[], runtime: PodRuntime): Promise<void> {
  const fail = runtime.jobFailures.shouldFail(pod);
  for (const container of containers)
    runtime.say(pod, `[${container.name}] ${fail ? 'configuration failed: connection refused by target (exit code 1)' : 'configuration applied'}`);
  const finished = await runtime.setStatus(pod, {
    phase: fail ? 'Failed' : 'Succeeded',
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((condition) => ({
      type: condition,
      status: condition === 'PodScheduled' || condition === 'Initialized' ? 'True' : 'False',
      lastProbeTime: null,
      lastTransitionTime: now(),
      ...(condition.includes('Ready') ? { reason: 'PodCompleted' } : {}),
    })),
    containerStatuses: containers.map((container) => terminated(container, fail ? 1 : 0, fail ? 'Error' : 'Completed')),
  });
  if (finished) runtime.finished(finished, !fail);
}
