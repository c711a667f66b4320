import { LABEL } from '@antidote/lesson-objects';
import type {
  V1ContainerState,
  V1ContainerStatus,
  V1Job,
  V1JobCondition,
  V1JobStatus,
  V1Namespace,
  V1ObjectMeta,
  V1Pod,
  V1PodStatus,
  V1ServiceAccount,
} from '@kubernetes/client-node';
import { SharedCopies } from './shared-copies.js';

/**
 * What the scheduler's caches keep of each object: what its waits read (`podState` of endpoint pods,
 * `jobState`, the presence and stage of configuration jobs and their pods, a namespace's lesson and
 * phase, a ServiceAccount's presence), nothing else. The caches hold every lesson's objects for as long
 * as it lives — 6 pods, 3 jobs, a namespace and a ServiceAccount per lesson of network-automation,
 * 110,000 objects with 10,000 lessons held — so a byte kept here is a byte kept 110,000 times:
 * - no `apiVersion` or `kind` (an informer holds one kind; a listed object has neither anyway); of
 *   the metadata the name, namespace, deletion time (a namespace's creation time) and the labels the
 *   waits select on, no resource version; of an endpoint pod's status its phase, reason, message and
 *   each container's state; of a configuration pod no status (its Job's conditions tell how it went);
 *   of a job its conditions and failed count;
 * - every object built with all its fields, in one order (an object spread that leaves fields out gave
 *   V8 a hidden class per object: ~200 bytes each);
 * - what objects have alike — endpoint pods' and jobs' names, namespaces, label sets, a Running pod's
 *   status, a Complete job's — held once (`SharedCopies`, read-only: the caches' objects are never
 *   written to); not what is an object's own (a configuration pod's generated name), which a table of
 *   shared copies would only keep alive longer.
 */
const shared = new SharedCopies();

/** The labels the waits select on (stage and kind of a configuration job and its pods). */
const READ_LABELS: readonly string[] = [LABEL.jobType, LABEL.stageId, LABEL.configPod];

const NO_LABELS: readonly string[] = [];

/** A namespace's labels read from the cache: the live lesson it holds (`listManagedNamespaces`, the watchdog). */
const NAMESPACE_LABELS: readonly string[] = [LABEL.liveLesson];

/** The labels read, shared when `alike` (a set many objects have: not a namespace's own lesson). */
function labelsOf(labels: Record<string, string> | undefined, read: readonly string[], alike: boolean): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const key of read) if (labels?.[key] !== undefined) kept[key] = labels[key];
  return alike ? shared.part(kept) : kept;
}

/**
 * Identity, the labels read and deletion time; times travel as strings (the client's models type them
 * as Date). No resource version: no wait reads it (the watch resumes from its events' versions; a re-list
 * reports every object it still finds as modified), and 10,000 lessons held kept 110,000 of them. `ownName`: a name no other object has (not
 * held in the shared copies).
 */
function metadataAsWaited(metadata: V1ObjectMeta | undefined, read: readonly string[], ownName = false): V1ObjectMeta {
  return {
    name: ownName ? metadata?.name : shared.string(metadata?.name),
    namespace: shared.string(metadata?.namespace),
    deletionTimestamp: metadata?.deletionTimestamp,
    labels: labelsOf(metadata?.labels, read, true),
  };
}

const stateAsWaited = (state: V1ContainerState | undefined): V1ContainerState | undefined => {
  if (!state) return undefined;
  if (state.running) return { running: {}, terminated: undefined, waiting: undefined };
  if (state.terminated) return { running: undefined, terminated: { exitCode: state.terminated.exitCode, reason: state.terminated.reason }, waiting: undefined };
  if (state.waiting) return { running: undefined, terminated: undefined, waiting: { reason: state.waiting.reason, message: state.waiting.message } };
  return { running: undefined, terminated: undefined, waiting: undefined };
};

const containerAsWaited = ({ name, state, lastState }: V1ContainerStatus): V1ContainerStatus =>
  ({
    name,
    state: stateAsWaited(state),
    lastState: lastState?.terminated ? stateAsWaited({ terminated: lastState.terminated }) : undefined,
  }) as V1ContainerStatus;

const podStatusAsWaited = (status: V1PodStatus): V1PodStatus =>
  shared.part({
    phase: status.phase,
    reason: status.reason,
    message: status.message,
    initContainerStatuses: status.initContainerStatuses?.map(containerAsWaited),
    containerStatuses: status.containerStatuses?.map(containerAsWaited),
  });

/** A pod as the caches keep it: identity, the labels read, and for an endpoint pod its phase, reason, message and each container's state. */
export function podAsWaited(pod: V1Pod): V1Pod {
  const configPod = pod.metadata?.labels?.[LABEL.configPod] !== undefined;
  const metadata = metadataAsWaited(pod.metadata, READ_LABELS, configPod);
  return { metadata, status: !configPod && pod.status ? podStatusAsWaited(pod.status) : undefined };
}

const conditionAsWaited = ({ type, status, reason, message }: V1JobCondition): V1JobCondition => ({ type, status, reason, message });

const jobStatusAsWaited = ({ conditions, failed }: V1JobStatus): V1JobStatus => shared.part({ conditions: conditions?.map(conditionAsWaited), failed });

/** A job as the caches keep it: identity, the labels read, its conditions (type, status, reason, message) and failed pods. */
export function jobAsWaited(job: V1Job): V1Job {
  return {
    metadata: metadataAsWaited(job.metadata, READ_LABELS),
    status: job.status ? jobStatusAsWaited(job.status) : undefined,
  };
}

/** A namespace as the caches keep it: its name, creation and deletion times, the live lesson it holds, its phase. */
export function namespaceAsWaited(namespace: V1Namespace): V1Namespace {
  const { metadata, status } = namespace;
  return {
    metadata: {
      name: metadata?.name,
      creationTimestamp: metadata?.creationTimestamp,
      deletionTimestamp: metadata?.deletionTimestamp,
      labels: labelsOf(metadata?.labels, NAMESPACE_LABELS, false),
    },
    status: status ? shared.part({ phase: status.phase, conditions: undefined }) : undefined,
  };
}

/** A ServiceAccount as the caches keep it: its identity (the wait asks whether it exists). */
export function serviceAccountAsWaited(account: V1ServiceAccount): V1ServiceAccount {
  return { metadata: metadataAsWaited(account.metadata, NO_LABELS) };
}
