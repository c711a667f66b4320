import { randomBytes } from 'node:crypto';
import type { KindBehaviour } from '../api/behaviour.js';
import type { KubeObject } from '../api/object.js';
import { ApiError } from '../api/status.js';
import { JobFailures } from '../pods/pod-lifecycle.js';
import type { PodHooks } from './pod.behaviour.js';
import { now, type SimContext } from './sim-context.js';

const JOB_RETRY_MS = 100;

interface JobSpec {
  backoffLimit?: number;
  template: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: Record<string, unknown> };
}

/**
 * Jobs (batch/v1): one pod at a time; a failed pod is replaced until `backoffLimit` retries are used,
 * then the Job gets condition Failed (BackoffLimitExceeded); the first success gives Complete.
 * Deleting a Job with Background/Foreground propagation deletes its pods; Orphan (the batch/v1 API
 * default) leaves them.
 */
export function jobBehaviour(sim: SimContext): { behaviour: KindBehaviour; podHooks: PodHooks } {
  const type = () => sim.type('batch', 'jobs');
  const podType = () => sim.type('', 'pods');
  const jobFailures = new JobFailures(sim.faults);

  const startPod = (job: KubeObject): void => {
    const spec = job.spec as unknown as JobSpec;
    const uid = job.metadata.uid!;
    const name = job.metadata.name!;
    const labels = {
      ...spec.template.metadata?.labels,
      'controller-uid': uid,
      'job-name': name,
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': name,
    };
    if (!createPod(job, labels)) return;
    sim.mutate(type(), job.metadata.namespace, name, (object) => {
      object.status = { ...object.status, active: 1, startTime: object.status?.startTime ?? now() };
    });
  };

  /** False when admission refused the pod (no ServiceAccount yet, over quota): tried again later, as the job controller does. */
  const createPod = (job: KubeObject, labels: Record<string, string>): boolean => {
    const spec = job.spec as unknown as JobSpec;
    const { name, uid } = job.metadata as { name: string; uid: string };
    try {
      sim.handler.create(
        podType(),
        job.metadata.namespace,
        {
          metadata: {
            name: `${name}-${randomBytes(3).toString('hex').slice(0, 5)}`,
            labels,
            ...(spec.template.metadata?.annotations ? { annotations: spec.template.metadata.annotations } : {}),
            ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name, uid, controller: true }],
          },
          spec: { restartPolicy: 'Never', ...spec.template.spec },
        },
        { internal: true },
      );
      return true;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 403) throw error;
      sim.log(`job ${job.metadata.namespace}/${name}: ${error.message}; retrying`);
      sim.later(JOB_RETRY_MS, () => {
        const stored = sim.store.get('batch/jobs', job.metadata.namespace, name);
        if (stored && stored.metadata.uid === uid && !stored.metadata.deletionTimestamp) startPod(stored);
      });
      return false;
    }
  };

  const podHooks: PodHooks = {
    jobFailures,
    finished(pod, succeeded) {
      const owner = pod.metadata.ownerReferences?.find((reference) => reference.kind === 'Job');
      if (!owner) return;
      const job = sim.store.get('batch/jobs', pod.metadata.namespace, owner.name);
      if (!job || job.metadata.uid !== owner.uid) return;
      const backoffLimit = (job.spec as unknown as JobSpec).backoffLimit ?? 6;
      const updated = sim.mutate(type(), pod.metadata.namespace, owner.name, (object) => {
        const status = { ...object.status } as Record<string, unknown>;
        status.active = 0;
        if (succeeded) {
          status.succeeded = ((status.succeeded as number | undefined) ?? 0) + 1;
          status.completionTime = now();
          status.conditions = [{ type: 'Complete', status: 'True', lastProbeTime: now(), lastTransitionTime: now() }];
        } else {
          status.failed = ((status.failed as number | undefined) ?? 0) + 1;
          if ((status.failed as number) > backoffLimit) {
            status.conditions = [
              {
                type: 'Failed',
                status: 'True',
                reason: 'BackoffLimitExceeded',
                message: 'Job has reached the specified backoff limit',
                lastProbeTime: now(),
                lastTransitionTime: now(),
              },
            ];
          }
        }
        object.status = status;
      });
      if (!updated) return;
      const failedOut = (updated.status?.conditions as { type: string }[] | undefined)?.some((condition) => condition.type === 'Failed');
      if (!succeeded && !failedOut) sim.later(10, () => startPod(updated));
    },
  };

  const behaviour: KindBehaviour = {
    prepareCreate(job) {
      job.spec = { backoffLimit: 6, completions: 1, parallelism: 1, ...job.spec };
      job.status = {};
    },
    created(job) {
      sim.later(0, () => {
        const stored = sim.store.get('batch/jobs', job.metadata.namespace, job.metadata.name!);
        if (stored && stored.metadata.uid === job.metadata.uid) startPod(stored);
      });
    },
    deleted(job, options) {
      jobFailures.forget(job.metadata.uid!);
      const pods = sim.store.list('/pods', job.metadata.namespace).filter((pod) => pod.metadata.labels?.['controller-uid'] === job.metadata.uid);
      for (const pod of pods) {
        if (options.propagationPolicy === 'Background' || options.propagationPolicy === 'Foreground') {
          try {
            sim.handler.delete(podType(), pod.metadata.namespace, pod.metadata.name!, {});
          } catch {
            // already gone
          }
        } else {
          sim.mutate(podType(), pod.metadata.namespace, pod.metadata.name!, (object) => {
            delete object.metadata.ownerReferences;
          });
        }
      }
    },
  };
  return { behaviour, podHooks };
}
