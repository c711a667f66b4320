import type { V1Job, V1Pod } from '@kubernetes/client-node';
import type { KubeClient } from '../client/kube-client.js';
import { jobState } from '../watch/workload-status.js';
import { waitOn, WorkloadFailedError, type CachedWaitOptions } from './wait-on.js';

/** Set by Kubernetes' Job controller on the pods of a Job. */
const JOB_NAME_LABEL = 'job-name';

/** Resolves once every named job succeeded; a failed job (backoffLimit used up) fails the wait with its pods' logs. */
export async function waitForJobsComplete(kube: KubeClient, namespace: string, names: readonly string[], options: CachedWaitOptions<V1Job>): Promise<void> {
  const failed = await waitOn<'Job', { job: string; reason: string } | undefined>(
    kube,
    { kind: 'Job', scope: namespace, query: {}, what: `configuration jobs in ${namespace}` },
    (jobs) => {
      const running: string[] = [];
      for (const name of names) {
        const job = jobs.get(name);
        const state = job ? jobState(job) : { state: 'running' as const };
        if (state.state === 'failed') return { state: 'done', value: { job: name, reason: state.reason } };
        if (state.state === 'running') running.push(name);
      }
      return running.length === 0 ? { state: 'done', value: undefined } : { state: 'waiting', progress: `still running: ${running.join(', ')}` };
    },
    options,
  );
  if (failed) {
    const pods = await kube.list('Pod', namespace, { labelSelector: `${JOB_NAME_LABEL}=${failed.job}` }).catch((error: unknown) => {
      kube.logger.warn({ namespace, job: failed.job, error: String(error) }, 'no pods listed for the failed job; its logs are left out');
      return { items: [] as V1Pod[] };
    });
    const logs = await Promise.all(pods.items.slice(-1).map((pod) => kube.podLogs(namespace, pod.metadata?.name ?? '')));
    throw new WorkloadFailedError(`configuration job ${failed.job} failed: ${failed.reason}`, logs.join('\n'));
  }
}
