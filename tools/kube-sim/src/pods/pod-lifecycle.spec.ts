import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/object.js';
import { defaultFaults } from '../faults.js';
import { ImageCache } from './image-cache.js';
import { JobFailures, startPod, type PodRuntime } from './pod-lifecycle.js';

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'linux1', namespace: 'l', uid: 'u1' },
  spec: { nodeName: 'kube-sim-node', containers: [{ name: 'main', image: 'antidotelabs/utility', ports: [{ containerPort: 22 }] }] },
};

/** A runtime whose steps run at once and whose listeners answer `failures`; records what the pod went through. */
function runtime(failures: string[]) {
  const faults = defaultFaults();
  const record = {
    statuses: [] as Record<string, unknown>[],
    events: [] as { reason: string; message: string; type?: string }[],
    released: [] as string[],
    listened: [] as string[],
    started: 0,
    steps: [] as Promise<void>[],
  };
  const fake: PodRuntime = {
    faults,
    jobFailures: new JobFailures(faults),
    images: new ImageCache(),
    event: (_pod, reason, message, type) => void record.events.push({ reason, message, type }),
    setStatus: (target, status) => (record.statuses.push(status), Promise.resolve({ ...target, status })),
    later: (_ms, step) => void record.steps.push(step()),
    say: () => undefined,
    allocateIP: () => '127.10.0.1',
    releaseIP: (ip) => void record.released.push(ip),
    hostIP: () => '127.0.0.1',
    listen: (_pod, ip) => (record.listened.push(ip), Promise.resolve(failures)),
    unlisten: () => undefined,
    started: () => void record.started++,
    finished: () => undefined,
  };
  const settled = async () => {
    for (let done = 0; done < record.steps.length; done++) await record.steps[done];
  };
  return { fake, record, settled };
}

describe('startPod', () => {
  it('opens the ports on the podIP before reporting Running', async () => {
    const { fake, record, settled } = runtime([]);
    startPod(pod, fake);
    await settled();
    expect(record.listened).toEqual(['127.10.0.1']);
    expect(record.statuses.at(-1)).toMatchObject({ phase: 'Running', podIP: '127.10.0.1', containerStatuses: [{ state: { running: expect.any(Object) } }] });
    expect(record.started).toBe(1);
  });

  it('reports a pod whose ports cannot be opened as unable to start, with why, never Running', async () => {
    const { fake, record, settled } = runtime(['cannot listen on 127.10.0.1:22: listen EMFILE: too many open files']);
    startPod(pod, fake);
    await settled();
    expect(record.statuses.some((status) => status.phase === 'Running')).toBe(false);
    expect(record.statuses.at(-1)).toMatchObject({
      phase: 'Pending',
      podIP: '127.10.0.1',
      containerStatuses: [{ ready: false, state: { waiting: { reason: 'RunContainerError', message: expect.stringContaining('EMFILE') } } }],
      conditions: expect.arrayContaining([{ type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: expect.any(String) }]),
    });
    expect(record.events).toEqual([{ reason: 'Failed', message: expect.stringContaining('cannot listen on 127.10.0.1:22'), type: 'Warning' }]);
  });
});
