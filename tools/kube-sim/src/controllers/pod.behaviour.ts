import type { KindBehaviour } from '../api/behaviour.js';
import type { KubeObject } from '../api/object.js';
import { podExposure } from '../endpoints/endpoint-exposure.js';
import { now, startPod, type JobFailures, type PodRuntime } from '../pods/pod-lifecycle.js';
import type { PodLogs } from '../pods/pod-logs.js';
import { admitLimitRanges, admitQuotas, admitServiceAccount } from './pod-admission.js';
import type { SimContext } from './sim-context.js';

/** A Job's reaction to its pods (kube-sim's job controller). */
export interface PodHooks {
  /** A pod owned by a Job finished (the job controller reacts). */
  finished(pod: KubeObject, succeeded: boolean): void;
  readonly jobFailures: JobFailures;
}

/**
 * Pods: scheduled at once on kube-sim's one node, then run by the shared kubelet lifecycle
 * (pods/pod-lifecycle.ts) on kube-sim's own store.
 */
export function podBehaviour(sim: SimContext, logs: PodLogs, hooks: PodHooks): KindBehaviour {
  const type = () => sim.type('', 'pods');
  const runtime: PodRuntime = {
    faults: sim.faults,
    jobFailures: hooks.jobFailures,
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
    started: (pod) => sim.endpoints.open(pod, podExposure(pod)),
    finished: (pod, succeeded) => hooks.finished(pod, succeeded),
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
