import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { metadataAndStatus } from './cache-view.js';

describe('metadataAndStatus', () => {
  it('keeps identity, labels, lifecycle times and status; drops spec, annotations and managed fields', () => {
    const pod: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'vqfx1',
        namespace: 'ns',
        uid: 'u1',
        resourceVersion: '42',
        labels: { antidoteManaged: 'yes' },
        annotations: { 'k8s.v1.cni.cncf.io/networks': '[…]' },
        creationTimestamp: '2026-12-05T00:00:00Z' as unknown as Date,
        deletionTimestamp: '2026-12-05T00:01:00Z' as unknown as Date,
        managedFields: [{ manager: 'antidote-scheduler' }],
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'u0' }],
      },
      spec: { containers: [{ name: 'vqfx1', image: 'vqfx' }] },
      status: { phase: 'Running', containerStatuses: [{ name: 'vqfx1', image: 'vqfx', imageID: '', ready: true, restartCount: 0, state: { running: {} } }] },
    };
    expect(metadataAndStatus(pod)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'vqfx1',
        namespace: 'ns',
        uid: 'u1',
        resourceVersion: '42',
        labels: { antidoteManaged: 'yes' },
        creationTimestamp: '2026-12-05T00:00:00Z',
        deletionTimestamp: '2026-12-05T00:01:00Z',
      },
      status: pod.status,
    });
  });

  it('adds nothing that was not there (an object of a watch event may carry little)', () => {
    expect(metadataAndStatus({ metadata: { name: 'gone' } })).toEqual({ metadata: { name: 'gone' } });
    expect(metadataAndStatus({})).toEqual({ metadata: {} });
  });
});
