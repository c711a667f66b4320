import type { KubeObject } from '../api/object.js';
import { age } from './age.js';

interface ContainerState {
  waiting?: { reason?: string };
  running?: object;
  terminated?: { reason?: string; exitCode?: number; signal?: number; finishedAt?: string };
}
interface ContainerStatus {
  ready?: boolean;
  started?: boolean;
  restartCount?: number;
  state?: ContainerState;
  lastState?: ContainerState;
}

const statusesOf = (pod: KubeObject, field: 'containerStatuses' | 'initContainerStatuses'): ContainerStatus[] =>
  (pod.status?.[field] as ContainerStatus[] | undefined) ?? [];
const terminatedReason = (terminated: NonNullable<ContainerState['terminated']>): string =>
  terminated.reason || (terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode ?? 0}`);

/** The init phase's reason (`Init:1/2`, `Init:Error`, `Init:CrashLoopBackOff`), or undefined once initialised. */
function initReason(pod: KubeObject): string | undefined {
  const statuses = statusesOf(pod, 'initContainerStatuses');
  const total = ((pod.spec?.initContainers as unknown[] | undefined) ?? []).length;
  for (const [index, status] of statuses.entries()) {
    const terminated = status.state?.terminated;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (terminated) return `Init:${terminatedReason(terminated)}`;
    const waiting = status.state?.waiting?.reason;
    if (waiting && waiting !== 'PodInitializing') return `Init:${waiting}`;
    return `Init:${index}/${total}`;
  }
  return undefined;
}

/** The cells `kubectl get pods` shows, computed the way the API server's pod printer does. */
export function podCells(pod: KubeObject, now: number): unknown[] {
  const containers = statusesOf(pod, 'containerStatuses');
  const total = ((pod.spec?.containers as unknown[] | undefined) ?? []).length;
  let reason = (pod.status?.reason as string | undefined) || ((pod.status?.phase as string | undefined) ?? '');
  let restarts = 0;
  let ready = 0;
  let lastRestart = 0;
  const initialised = ((pod.status?.conditions as { type: string; status: string }[] | undefined) ?? []).some(
    (c) => c.type === 'Initialized' && c.status === 'True',
  );
  const init = initReason(pod);
  for (const status of statusesOf(pod, 'initContainerStatuses')) restarts += status.restartCount ?? 0;
  if (init) reason = init;
  if (!init || initialised) {
    restarts = 0;
    let hasRunning = false;
    for (const status of [...containers].reverse()) {
      restarts += status.restartCount ?? 0;
      const finished = status.lastState?.terminated?.finishedAt;
      if (finished) lastRestart = Math.max(lastRestart, Date.parse(finished) || 0);
      if (status.state?.waiting?.reason) reason = status.state.waiting.reason;
      else if (status.state?.terminated) reason = terminatedReason(status.state.terminated);
      else if (status.ready && status.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = 'Running';
  }
  const phase = pod.status?.phase as string | undefined;
  if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  const restartsText = restarts !== 0 && lastRestart > 0 ? `${restarts} (${age(new Date(lastRestart).toISOString(), now)} ago)` : String(restarts);
  const podIPs = (pod.status?.podIPs as { ip: string }[] | undefined) ?? [];
  return [
    pod.metadata.name,
    `${ready}/${total}`,
    reason,
    restartsText,
    age(pod.metadata.creationTimestamp, now),
    podIPs[0]?.ip ?? pod.status?.podIP ?? '<none>',
    pod.spec?.nodeName || '<none>',
    pod.status?.nominatedNodeName || '<none>',
    '<none>',
  ];
}
