import type { V1Pod } from '@kubernetes/client-node';
import type { KubeClient } from '../client/kube-client.js';
import { podState } from '../watch/workload-status.js';
import { waitOn, WorkloadFailedError, type CachedWaitOptions } from './wait-on.js';

/** Resolves once every named pod is Running; fails at once, with the container's log, when one fails for good. */
export async function waitForPodsRunning(kube: KubeClient, namespace: string, names: readonly string[], options: CachedWaitOptions<V1Pod>): Promise<void> {
  const wanted = new Set(names);
  const failure = await waitOn<'Pod', { pod: string; reason: string; container?: string } | undefined>(
    kube,
    { kind: 'Pod', scope: namespace, query: {}, what: `pods Running in ${namespace}` },
    (pods) => {
      const pending: string[] = [];
      for (const name of wanted) {
        const pod = pods.get(name);
        if (!pod) {
          pending.push(`${name}: not created`);
          continue;
        }
        const state = podState(pod);
        if (state.state === 'failed')
          return { state: 'done', value: { pod: name, reason: state.reason, ...(state.container ? { container: state.container } : {}) } };
        if (state.state === 'pending') pending.push(`${name}: ${state.detail}`);
      }
      return pending.length === 0 ? { state: 'done', value: undefined } : { state: 'waiting', progress: pending.join('; ') };
    },
    options,
  );
  if (failure) {
    const logs = await kube.podLogs(namespace, failure.pod, failure.container);
    throw new WorkloadFailedError(`pod ${failure.pod}: ${failure.reason}`, logs);
  }
}
