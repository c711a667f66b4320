import type { KindBehaviour } from '../api/behaviour.js';
import type { KubeObject } from '../api/object.js';
import { containerPorts } from '../endpoints/endpoint-exposure.js';
import { randomBytes } from 'node:crypto';
import type { ImageCache } from '../pods/image-cache.js';
import { now, startPod, type JobFailures, type PodRuntime } from '../pods/pod-lifecycle.js';
import type { PodLogs } from '../pods/pod-logs.js';
import { admitLimitRanges, admitQuotas, admitServiceAccount } from './pod-admission.js';
import type { SimContext } from './sim-context.js';
import { pickNode } from './sim-nodes.js';

/** A Job's reaction to its pods (kube-sim's job controller). */
export interface PodHooks {
  /** A pod owned by a Job finished (the job controller reacts). */
  finished(pod: KubeObject, succeeded: boolean): void;
  readonly jobFailures: JobFailures;
}

/**
 * Pods: scheduled at once on the least busy of kube-sim's nodes (or the `nodeName` they ask for), then run by the shared kubelet lifecycle
 * (pods/pod-lifecycle.ts) on kube-sim's own store.
 */
export function podBehaviour(sim: SimContext, logs: PodLogs, hooks: PodHooks, images: ImageCache): KindBehaviour {
  const type = () => sim.type('', 'pods');
  const runtime: PodRuntime = {
    faults: sim.faults,
    jobFailures: hooks.jobFailures,
    images,
    event: (pod, reason, message, type) => recordEvent(sim, pod, reason, message, type),
    setStatus: (pod, status) =>
      Promise.resolve(
        sim.mutate(type(), pod.metadata.namespace, pod.metadata.name!, (object) => {
          object.status = { ...object.status, ...status };
        }),
      ),
    later: (ms, step) => sim.later(ms, () => void step().catch((error: unknown) => sim.log(`pod step failed: ${String(error)}`))),
    say: (pod, line) => logs.say(pod, line),
    allocateIP: () => sim.podAddresses.allocate(),
    releaseIP: (ip) => sim.podAddresses.release(ip),
    hostIP: () => '127.0.0.1',
    listen: (pod, podIP) => sim.endpoints.open(pod, { address: podIP, ports: containerPorts(pod) }),
    unlisten: (pod) => sim.endpoints.close(pod),
    describeBoot: (pod) => sim.endpoints.describeBoot(pod),
    finished: (pod, succeeded) => hooks.finished(pod, succeeded),
  };

  return {
    prepareCreate(pod) {
      admitServiceAccount(sim.store, pod);
      admitLimitRanges(sim.store, pod);
      admitQuotas(sim.store, pod);
      pod.spec = {
        restartPolicy: 'Always',
        dnsPolicy: 'ClusterFirst',
        schedulerName: 'default-scheduler',
        ...pod.spec,
        nodeName: pod.spec?.nodeName ?? pickNode(sim.store),
      };
      pod.status = { phase: 'Pending', qosClass: 'BestEffort', conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: now() }] };
    },
    created(pod) {
      sim.later(0, () => startPod(pod, runtime));
    },
    deleted(pod) {
      sim.endpoints.close(pod);
      const ip = pod.status?.podIP as string | undefined;
      if (ip) sim.podAddresses.release(ip);
      logs.forget(pod.metadata.uid!);
    },
  };
}

/** A kubelet Event about a pod, or one of another component about another object (best effort: a namespace being deleted refuses it). */
export function recordEvent(
  sim: SimContext,
  object: KubeObject,
  reason: string,
  message: string,
  type: 'Normal' | 'Warning' = 'Normal',
  component = 'kubelet',
): void {
  const { name, namespace, uid } = object.metadata;
  const node = object.spec?.nodeName as string | undefined;
  try {
    sim.handler.create(
      sim.type('', 'events'),
      namespace,
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${name}.${randomBytes(8).toString('hex')}`, namespace },
        involvedObject: { apiVersion: object.apiVersion ?? 'v1', kind: object.kind ?? 'Pod', name, namespace, uid },
        reason,
        message,
        type,
        source: { component, host: node },
        reportingComponent: component,
        reportingInstance: node,
        firstTimestamp: now(),
        lastTimestamp: now(),
        count: 1,
      },
      { internal: true },
    );
  } catch (error) {
    sim.log(`event ${reason} for ${namespace}/${name} not recorded: ${String(error)}`);
  }
}
