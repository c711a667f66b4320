import { jobState, podState } from '@antidote/kube';
import type { V1Job, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { jobAsWaited, podAsWaited } from './cache-shapes.js';

const metadata = {
  name: 'vqfx1',
  namespace: 'antidote-local-abc123-network-automation',
  uid: '8f0c1c4e-5b7a-4c11-9a36-2d0f3c8a1b22',
  resourceVersion: '4242',
  creationTimestamp: '2026-12-07T04:00:00Z',
  labels: { antidoteManaged: 'yes', liveLesson: 'abc123', stageId: '0', 'job-name': 'config-vqfx1-0', 'controller-uid': '8f0c1c4e' },
  annotations: { 'k8s.v1.cni.cncf.io/networks': '[{"name":"vqfx1-vqfx2-net"}]' },
  managedFields: [{ manager: 'antidote-scheduler', operation: 'Apply' }],
};
const container = {
  name: 'vqfx1',
  image: 'antidotelabs/vqfx:snap1',
  imageID: 'docker-pullable://antidotelabs/vqfx@sha256:0123',
  containerID: 'containerd://abc',
  ready: true,
  restartCount: 0,
  started: true,
};
const conditions = [
  { type: 'Initialized', status: 'True', lastTransitionTime: '2026-12-07T04:00:01Z' },
  { type: 'Ready', status: 'True', lastTransitionTime: '2026-12-07T04:00:02Z' },
];
/** As the API server writes them (times are strings on the wire), typed as the client's models. */
const pod = (status: object | undefined): V1Pod =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'vqfx1', image: 'antidotelabs/vqfx:snap1' }] }, status }) as unknown as V1Pod;

/** Pods in every state the pod wait tells apart. */
const PODS: Record<string, V1Pod> = {
  running: pod({
    phase: 'Running',
    conditions,
    podIP: '10.1.2.3',
    hostIP: '10.0.0.1',
    startTime: '2026-12-07T04:00:00Z',
    containerStatuses: [{ ...container, state: { running: { startedAt: '2026-12-07T04:00:02Z' } } }],
  }),
  'no status yet': pod(undefined),
  'pending, creating': pod({ phase: 'Pending', containerStatuses: [{ ...container, ready: false, state: { waiting: { reason: 'ContainerCreating' } } }] }),
  'pulling fails': pod({
    phase: 'Pending',
    containerStatuses: [{ ...container, ready: false, state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image' } } }],
  }),
  'init container failed': pod({
    phase: 'Pending',
    initContainerStatuses: [
      { ...container, name: 'init', ready: false, state: { terminated: { exitCode: 2, reason: 'Error', startedAt: 'x', finishedAt: 'y' } } },
    ],
  }),
  'init container failed before': pod({
    phase: 'Pending',
    initContainerStatuses: [
      { ...container, name: 'init', ready: false, state: { waiting: { reason: 'PodInitializing' } }, lastState: { terminated: { exitCode: 1 } } },
    ],
  }),
  'pod failed': pod({ phase: 'Failed', reason: 'Evicted', message: 'The node was low on memory.' }),
  'one container not running': pod({
    phase: 'Running',
    containerStatuses: [
      { ...container, state: { running: {} } },
      { ...container, name: 'sidecar', state: { waiting: { reason: 'ContainerCreating' } } },
    ],
  }),
};

const job = (status: object): V1Job => ({ apiVersion: 'batch/v1', kind: 'Job', metadata, spec: { template: {} }, status }) as unknown as V1Job;
const JOBS: Record<string, V1Job> = {
  running: job({ active: 1, startTime: '2026-12-07T04:00:00Z' }),
  succeeded: job({
    succeeded: 1,
    completionTime: 'x',
    conditions: [
      { type: 'SuccessCriteriaMet', status: 'True' },
      { type: 'Complete', status: 'True', lastTransitionTime: 'x' },
    ],
  }),
  failed: job({
    failed: 4,
    conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }],
  }),
  'complete not yet true': job({ conditions: [{ type: 'Complete', status: 'False' }] }),
};

describe('what the scheduler caches of a pod or a job', () => {
  it.each(Object.entries(PODS))('gives the pod wait the same verdict: %s', (_, full) => {
    expect(podState(podAsWaited(full))).toEqual(podState(full));
  });

  it.each(Object.entries(JOBS))('gives the job wait the same verdict: %s', (_, full) => {
    expect(jobState(jobAsWaited(full))).toEqual(jobState(full));
  });

  it('keeps identity and the labels the waits read, and drops the spec, annotations, other labels and the status details', () => {
    const kept = podAsWaited(PODS.running);
    expect(kept.metadata).toEqual({ name: metadata.name, namespace: metadata.namespace, labels: { stageId: '0' } });
    expect(kept).not.toHaveProperty('spec');
    expect(kept.metadata).not.toHaveProperty('resourceVersion');
    expect(kept.status).toEqual({ phase: 'Running', containerStatuses: [{ name: 'vqfx1', state: { running: {} } }] });
    const configPod = podAsWaited({
      ...PODS.running,
      metadata: { ...metadata, labels: { ...metadata.labels, configPod: 'yes', jobType: 'config' } },
    } as unknown as V1Pod);
    expect(configPod).toEqual({
      metadata: {
        name: metadata.name,
        namespace: metadata.namespace,
        labels: { stageId: '0', configPod: 'yes', jobType: 'config' },
      },
    });
    expect(jobAsWaited({ ...JOBS.failed, metadata: { ...metadata, deletionTimestamp: '2026-12-07T05:00:00Z' } } as unknown as V1Job).metadata).toHaveProperty(
      'deletionTimestamp',
      '2026-12-07T05:00:00Z',
    );
    expect(jobAsWaited(JOBS.succeeded).status).toEqual({
      conditions: [
        { type: 'SuccessCriteriaMet', status: 'True' },
        { type: 'Complete', status: 'True' },
      ],
    });
  });
});
