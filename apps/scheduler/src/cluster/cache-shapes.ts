import { LABEL } from '@antidote/lesson-objects';
import type { V1ContainerState, V1ContainerStatus, V1Job, V1JobCondition, V1ObjectMeta, V1Pod } from '@kubernetes/client-node';

/**
 * What the scheduler's caches keep of each pod and job: what its waits read (`podState` of endpoint pods,
 * `jobState`, the presence and stage of configuration jobs and their pods), nothing else. The caches hold
 * every lesson's objects for as long as it lives — 6 pods and 3 jobs per lesson of network-automation,
 * 90,000 objects with 10,000 lessons held — so a field kept here is a field kept 90,000 times: of the
 * metadata the name, namespace, resource version, deletion time and the three labels the waits select
 * on; of the status no conditions, addresses, images, container ids or times, and none at all of a
 * configuration pod (its Job's conditions tell how it went).
 */
const READ_LABELS: readonly string[] = [LABEL.jobType, LABEL.stageId, LABEL.configPod];

function metadataAsWaited({ name, namespace, resourceVersion, deletionTimestamp, labels }: V1ObjectMeta): V1ObjectMeta {
  const kept: Record<string, string> = {};
  for (const key of READ_LABELS) if (labels?.[key] !== undefined) kept[key] = labels[key];
  return { name, namespace, resourceVersion, ...(deletionTimestamp ? { deletionTimestamp } : {}), labels: kept };
}

const stateAsWaited = (state: V1ContainerState): V1ContainerState => {
  if (state.running) return { running: {} };
  if (state.terminated) return { terminated: { exitCode: state.terminated.exitCode, ...(state.terminated.reason ? { reason: state.terminated.reason } : {}) } };
  if (state.waiting)
    return {
      waiting: { ...(state.waiting.reason ? { reason: state.waiting.reason } : {}), ...(state.waiting.message ? { message: state.waiting.message } : {}) },
    };
  return {};
};

const containerAsWaited = ({ name, state, lastState }: V1ContainerStatus): V1ContainerStatus =>
  ({
    name,
    ...(state ? { state: stateAsWaited(state) } : {}),
    ...(lastState?.terminated ? { lastState: stateAsWaited({ terminated: lastState.terminated }) } : {}),
  }) as V1ContainerStatus;

/** A pod as the caches keep it: identity, the labels read, and for an endpoint pod its phase, reason, message and each container's state. */
export function podAsWaited(pod: V1Pod): V1Pod {
  const metadata = metadataAsWaited(pod.metadata ?? {});
  const status = metadata.labels?.[LABEL.configPod] === undefined ? pod.status : undefined;
  return {
    ...(pod.apiVersion ? { apiVersion: pod.apiVersion } : {}),
    ...(pod.kind ? { kind: pod.kind } : {}),
    metadata,
    ...(status
      ? {
          status: {
            ...(status.phase ? { phase: status.phase } : {}),
            ...(status.reason ? { reason: status.reason } : {}),
            ...(status.message ? { message: status.message } : {}),
            ...(status.initContainerStatuses ? { initContainerStatuses: status.initContainerStatuses.map(containerAsWaited) } : {}),
            ...(status.containerStatuses ? { containerStatuses: status.containerStatuses.map(containerAsWaited) } : {}),
          },
        }
      : {}),
  };
}

/** A job as the caches keep it: identity, the labels read, its conditions (type, status, reason, message) and failed pods. */
export function jobAsWaited(job: V1Job): V1Job {
  const status = job.status;
  const condition = ({ type, status: value, reason, message }: V1JobCondition): V1JobCondition => ({
    type,
    status: value,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  });
  return {
    ...(job.apiVersion ? { apiVersion: job.apiVersion } : {}),
    ...(job.kind ? { kind: job.kind } : {}),
    metadata: metadataAsWaited(job.metadata ?? {}),
    ...(status
      ? {
          status: {
            ...(status.conditions ? { conditions: status.conditions.map(condition) } : {}),
            ...(status.failed !== undefined ? { failed: status.failed } : {}),
          },
        }
      : {}),
  };
}
