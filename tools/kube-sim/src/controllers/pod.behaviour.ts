import type { KindBehaviour } from '../api/behaviour.js';
import type { KubeObject } from '../api/object.js';
import { podExposure } from '../endpoints/endpoint-exposure.js';
import { matchesAny } from '../faults.js';
import { admitLimitRanges, admitQuotas, admitServiceAccount } from './pod-admission.js';
import { now, type SimContext } from './sim-context.js';

interface Container {
  name: string;
  image?: string;
  ports?: { containerPort: number }[];
}

const containersOf = (pod: KubeObject, field: 'containers' | 'initContainers'): Container[] => (pod.spec?.[field] as Container[] | undefined) ?? [];
const waiting = (container: Container, reason: string, message: string) => ({
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

export interface PodHooks {
  /** A pod owned by a Job finished (the job controller reacts). */
  finished(pod: KubeObject, succeeded: boolean): void;
  /** Whether this job pod must fail (the job-failure fault). */
  shouldFail(pod: KubeObject): boolean;
}

/**
 * Pods: Pending → init containers → Running after `podStartDelayMs`, with a loopback podIP on which the
 * container ports really listen. Faults: image pull failure, crash loop, init failure, unreachable. Job pods run for
 * `jobRunDelayMs` and then succeed or fail.
 */
export function podBehaviour(sim: SimContext, logs: Map<string, string[]>, hooks: PodHooks): KindBehaviour {
  const type = () => sim.type('', 'pods');
  const say = (pod: KubeObject, line: string): void => {
    const key = pod.metadata.uid!;
    logs.set(key, [...(logs.get(key) ?? []), `${now()} ${line}`]);
  };
  const update = (pod: KubeObject, change: (object: KubeObject) => void): KubeObject | undefined =>
    sim.mutate(type(), pod.metadata.namespace, pod.metadata.name!, change);
  const isJobPod = (pod: KubeObject): boolean => pod.metadata.ownerReferences?.some((owner) => owner.kind === 'Job') ?? false;

  const start = (pod: KubeObject): void => {
    const containers = containersOf(pod, 'containers');
    const inits = containersOf(pod, 'initContainers');
    const images = [...inits, ...containers].map((container) => container.image ?? '');
    for (const container of inits) say(pod, `[${container.name}] init container started (${container.image})`);
    if (inits.some((container) => matchesAny(sim.faults.initFailure, container.image ?? '')) || images.some((image) => matchesAny(sim.faults.initFailure, image))) {
      say(pod, `[${inits[0]?.name ?? 'init'}] error: init script failed with exit code 1`);
      update(pod, (object) => {
        object.status = {
          ...object.status,
          phase: isJobPod(pod) ? 'Failed' : 'Pending',
          initContainerStatuses: inits.map((container) => terminated(container, 1, 'Error')),
          containerStatuses: containers.map((container) => waiting(container, 'PodInitializing', '')),
        };
      });
      if (isJobPod(pod)) hooks.finished(pod, false);
      return;
    }
    const pullFailure = containers.find((container) => matchesAny(sim.faults.imagePullFailure, container.image ?? ''));
    if (pullFailure) {
      const message = `Failed to pull image "${pullFailure.image}": rpc error: code = NotFound desc = failed to pull and unpack image: not found`;
      update(pod, (object) => {
        object.status = { ...object.status, initContainerStatuses: inits.map((c) => terminated(c, 0, 'Completed')), containerStatuses: containers.map((c) => (c === pullFailure ? waiting(c, 'ErrImagePull', message) : waiting(c, 'ContainerCreating', ''))) };
      });
      sim.later(50, () =>
        update(pod, (object) => {
          object.status = { ...object.status, containerStatuses: containers.map((c) => (c === pullFailure ? waiting(c, 'ImagePullBackOff', `Back-off pulling image "${pullFailure.image}"`) : waiting(c, 'ContainerCreating', ''))) };
        }),
      );
      return;
    }
    sim.later(sim.faults.podStartDelayMs, () => run(pod, containers, inits));
  };

  const run = (pod: KubeObject, containers: Container[], inits: Container[]): void => {
    const podIP = sim.podAddresses.allocate();
    const crashing = containers.find((container) => matchesAny(sim.faults.crash, container.image ?? ''));
    for (const container of containers) say(pod, `[${container.name}] started ${container.image}${container === crashing ? '; exited with code 1: segmentation fault' : ''}`);
    const updated = update(pod, (object) => {
      object.status = {
        ...object.status,
        phase: 'Running',
        podIP,
        podIPs: [{ ip: podIP }],
        hostIP: '127.0.0.1',
        startTime: (object.status?.startTime) ?? now(),
        conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((condition) => ({ type: condition, status: crashing && condition.includes('Ready') ? 'False' : 'True', lastTransitionTime: now() })),
        initContainerStatuses: inits.map((container) => terminated(container, 0, 'Completed')),
        containerStatuses: containers.map((container) =>
          container === crashing
            ? { ...waiting(container, 'CrashLoopBackOff', `back-off 40s restarting failed container=${container.name}`), restartCount: 3, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: now() } } }
            : running(container),
        ),
      };
    });
    if (!updated) {
      sim.podAddresses.release(podIP);
      return;
    }
    sim.endpoints.open(updated, podExposure(updated));
    if (isJobPod(pod)) sim.later(sim.faults.jobRunDelayMs, () => finishJobPod(pod, containers));
  };

  const finishJobPod = (pod: KubeObject, containers: Container[]): void => {
    const fail = hooks.shouldFail(pod);
    for (const container of containers) say(pod, `[${container.name}] ${fail ? 'configuration failed: connection refused by target (exit code 1)' : 'configuration applied'}`);
    const finished = update(pod, (object) => {
      object.status = {
        ...object.status,
        phase: fail ? 'Failed' : 'Succeeded',
        conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: now() }],
        containerStatuses: containers.map((container) => terminated(container, fail ? 1 : 0, fail ? 'Error' : 'Completed')),
      };
    });
    if (finished) hooks.finished(finished, !fail);
  };

  return {
    prepareCreate(pod) {
      admitServiceAccount(sim.store, pod);
      admitLimitRanges(sim.store, pod);
      admitQuotas(sim.store, pod);
      pod.spec = { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', ...pod.spec, nodeName: (pod.spec?.nodeName) ?? 'kube-sim-node' };
      pod.status = { phase: 'Pending', qosClass: 'BestEffort', conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: now() }] };
    },
    created(pod) {
      sim.later(0, () => start(pod));
    },
    deleted(pod) {
      sim.endpoints.close(pod);
      const ip = pod.status?.podIP as string | undefined;
      if (ip) sim.podAddresses.release(ip);
      logs.delete(pod.metadata.uid!);
    },
  };
}
