import { metadataAndStatus } from '@antidote/kube';
import { LABEL } from '@antidote/lesson-objects';
import type { V1ContainerState, V1ContainerStatus, V1Job, V1JobCondition, V1ObjectMeta, V1Pod } from '@kubernetes/client-node';

/**
 * What the scheduler's caches keep of each pod and job: what its waits read (`podState`, `jobState`, the
 * configuration pods of other stages), nothing else. The caches hold every lesson's objects for as long
 * as it lives — 6 pods and 3 jobs per lesson of network-automation, 90,000 objects with 10,000 lessons
 * held — so a field kept here is a field kept 90,000 times: no conditions, addresses, images, container
 * ids or times of the status, and of the labels only Antidote's own (not the Job controller's).
 */
const OUR_LABELS: ReadonlySet<string> = new Set(Object.values(LABEL));

function ourLabels(metadata: V1ObjectMeta): V1ObjectMeta {
  if (!metadata.labels) return metadata;
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata.labels)) if (OUR_LABELS.has(key)) labels[key] = value;
  return { ...metadata, labels };
}

const stateAsWaited = (state: V1ContainerState): V1ContainerState => {
  if (state.running) return { running: {} };
  if (state.terminated) return { terminated: { exitCode: state.terminated.exitCode, ...(state.terminated.reason ? { reason: state.terminated.reason } : {}) } };
  if (state.waiting) return { waiting: { ...(state.waiting.reason ? { reason: state.waiting.reason } : {}), ...(state.waiting.message ? { message: state.waiting.message } : {}) } };
  return {};
};

const containerAsWaited = ({ name, state, lastState }: V1ContainerStatus): V1ContainerStatus =>
  ({ name, ...(state ? { state: stateAsWaited(state) } : {}), ...(lastState?.terminated ? { lastState: stateAsWaited({ terminated: lastState.terminated }) } : {}) }) as V1ContainerStatus;

/** A pod as the caches keep it: identity, our labels, phase, reason, message and each container's state. */
export function podAsWaited(pod: V1Pod): V1Pod {
  const kept = metadataAndStatus(pod);
  const status = pod.status;
  return {
    ...kept,
    metadata: ourLabels(kept.metadata ?? {}),
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

/** A job as the caches keep it: identity, our labels, its conditions (type, status, reason, message) and failed pods. */
export function jobAsWaited(job: V1Job): V1Job {
  const kept = metadataAndStatus(job);
  const status = job.status;
  const condition = ({ type, status: value, reason, message }: V1JobCondition): V1JobCondition => ({ type, status: value, ...(reason ? { reason } : {}), ...(message ? { message } : {}) });
  return {
    ...kept,
    metadata: ourLabels(kept.metadata ?? {}),
    ...(status ? { status: { ...(status.conditions ? { conditions: status.conditions.map(condition) } : {}), ...(status.failed !== undefined ? { failed: status.failed } : {}) } } : {}),
  };
}
