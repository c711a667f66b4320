import type { V1ContainerStatus, V1Job, V1Pod } from '@kubernetes/client-node';

/** Waiting reasons that will not fix themselves in time: the wait fails at once. */
const FATAL_WAITING = new Set([
  'ImagePullBackOff',
  'ErrImagePull',
  'CrashLoopBackOff',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
]);

export type PodState = { state: 'running' } | { state: 'pending'; detail: string } | { state: 'failed'; reason: string; container?: string };

const describeContainer = (status: V1ContainerStatus): string | undefined => {
  const waiting = status.state?.waiting;
  if (waiting?.reason && FATAL_WAITING.has(waiting.reason)) return `${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`;
  return undefined;
};

/**
 * Where one endpoint pod stands: Running (every container started), still pending, or failed for good —
 * phase Failed, a failed init container, or a container stuck pulling its image or crash-looping.
 */
export function podState(pod: V1Pod): PodState {
  const status = pod.status;
  if (status?.phase === 'Failed')
    return { state: 'failed', reason: `pod failed${status.reason ? ` (${status.reason})` : ''}${status.message ? `: ${status.message}` : ''}` };
  for (const init of status?.initContainerStatuses ?? []) {
    const terminated = init.state?.terminated ?? init.lastState?.terminated;
    if (terminated && terminated.exitCode !== 0)
      return {
        state: 'failed',
        reason: `init container ${init.name} failed with exit code ${terminated.exitCode}${terminated.reason ? ` (${terminated.reason})` : ''}`,
        container: init.name,
      };
    const fatal = describeContainer(init);
    if (fatal) return { state: 'failed', reason: `init container ${init.name}: ${fatal}`, container: init.name };
  }
  for (const container of status?.containerStatuses ?? []) {
    const fatal = describeContainer(container);
    if (fatal) return { state: 'failed', reason: `container ${container.name}: ${fatal}`, container: container.name };
  }
  const containers = status?.containerStatuses ?? [];
  if (status?.phase === 'Running' && containers.length > 0 && containers.every((c) => c.state?.running)) return { state: 'running' };
  const waiting = containers.map((c) => c.state?.waiting?.reason).find(Boolean);
  return { state: 'pending', detail: `${status?.phase ?? 'no status'}${waiting ? `, ${waiting}` : ''}` };
}

export type JobState = { state: 'succeeded' } | { state: 'running' } | { state: 'failed'; reason: string };

/**
 * A Job's outcome from its conditions (Complete / Failed, set by the Job controller once
 * `backoffLimit` is used up or the deadline passed); counts alone never decide failure.
 */
export function jobState(job: V1Job): JobState {
  const conditions = job.status?.conditions ?? [];
  const failed = conditions.find((c) => c.type === 'Failed' && c.status === 'True');
  if (failed)
    return { state: 'failed', reason: `${failed.reason ?? 'Failed'}${failed.message ? `: ${failed.message}` : ''} (${job.status?.failed ?? 0} failed pod(s))` };
  if (conditions.some((c) => c.type === 'Complete' && c.status === 'True')) return { state: 'succeeded' };
  return { state: 'running' };
}
