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
  event?(pod: KubeObject, reason: string, message: string): void;
  /** Merges `status` into the pod's status; the updated pod, or undefined when it is gone. */
  setStatus(pod: KubeObject, status: Record<string, unknown>): Promise<KubeObject | undefined>;
  /** Runs `step` after `ms` (unless stopped). */
  later(ms: number, step: () => Promise<void>): void;
  /** Appends a line to the pod's log (`[container] …`). */
  say(pod: KubeObject, line: string): void;
  allocateIP(): string;
  releaseIP(ip: string): void;
  hostIP(pod: KubeObject): string;
  /** The pod is Running with its podIP: open its listeners. */
  started(pod: KubeObject): void;
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
      await runtime.setStatus(pod, creating((c) => (c === pullFailure ? waiting(c, 'ErrImagePull', message) : waiting(c, 'ContainerCreating', ''))));
      runtime.later(50, async () => void (await runtime.setStatus(pod, creating((c) => (c === pullFailure ? waiting(c, 'ImagePullBackOff', backOff) : waiting(c, 'ContainerCreating', ''))))));
    });
    return;
  }
  pullImages(pod, runtime, () => runtime.later(faults.podStartDelayMs, () => run(pod, containers, inits, runtime)));
}

async function run(pod: KubeObject, containers: Container[], inits: Container[], runtime: PodRuntime): Promise<void> {
  const podIP = runtime.allocateIP();
  const crashing = containers.find((container) => matchesAny(runtime.faults.crash, container.image ?? ''));
  for (const container of containers) runtime.say(pod, `[${container.name}] started ${container.image}${container === crashing ? '; exited with code 1: segmentation fault' : ''}`);
  const updated = await runtime.setStatus(pod, {
    phase: 'Running',
    podIP,
    podIPs: [{ ip: podIP }],
    hostIP: runtime.hostIP(pod),
    startTime: pod.status?.startTime ?? now(),
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((condition) => ({ type: condition, status: crashing && condition.includes('Ready') ? 'False' : 'True', lastProbeTime: null, lastTransitionTime: now() })),
    initContainerStatuses: inits.map((container) => terminated(container, 0, 'Completed')),
    containerStatuses: containers.map((container) =>
      container === crashing
        ? { ...waiting(container, 'CrashLoopBackOff', `back-off 40s restarting failed container=${container.name}`), restartCount: 3, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: now() } } }
        : running(container),
    ),
  });
  if (!updated) {
    runtime.releaseIP(podIP);
    return;
  }
  runtime.started(updated);
  if (isJobPod(pod)) runtime.later(runtime.faults.jobRunDelayMs, () => finishJobPod(updated, containers, runtime));
}

async function finishJobPod(pod: KubeObject, containers: Container[], runtime: PodRuntime): Promise<void> {
  const fail = runtime.jobFailures.shouldFail(pod);
  for (const container of containers) runtime.say(pod, `[${container.name}] ${fail ? 'configuration failed: connection refused by target (exit code 1)' : 'configuration applied'}`);
  const finished = await runtime.setStatus(pod, {
    phase: fail ? 'Failed' : 'Succeeded',
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((condition) => ({ type: condition, status: condition === 'PodScheduled' || condition === 'Initialized' ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: now(), ...(condition.includes('Ready') ? { reason: 'PodCompleted' } : {}) })),
    containerStatuses: containers.map((container) => terminated(container, fail ? 1 : 0, fail ? 'Error' : 'Completed')),
  });
  if (finished) runtime.finished(finished, !fail);
}
