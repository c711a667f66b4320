import type { KubeSim } from '@antidote/kube-sim';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { job, managed, pod, startSimClient } from '../../test/sim-client.js';
import type { KubeApiError } from '../client/kube-api.error.js';
import type { KubeClient } from '../client/kube-client.js';
import { WaitTimeoutError } from '../watch/watch-until.js';
import { waitForJobsComplete } from './job-waits.js';
import { waitForNamespaceGone, waitForServiceAccount } from './namespace-waits.js';
import { waitForPodsRunning } from './pod-waits.js';
import { WorkloadFailedError } from './wait-on.js';

/** The waits by a list + watch of their own (the scheduler's, on its shared informers, are tested there). */
describe('waits against kube-sim', () => {
  let sim: KubeSim;
  let kube: KubeClient;
  let ns: string;
  let counter = 0;

  beforeAll(async () => {
    ({ sim, kube } = await startSimClient({ ownerLabel: { key: 'antidoteManaged', value: 'yes' } }));
  });
  afterAll(() => sim.stop());
  beforeEach(async () => {
    sim.resetFaults();
    ns = `waits-test-${++counter}`;
    await kube.create('Namespace', '', { metadata: { name: ns, labels: managed } });
    await waitForServiceAccount(kube, ns, 'default', { timeoutMs: 60_000 });
  });

  it('waits for the ServiceAccount a controller makes after the namespace; a pod refused before fails at once, as do other 403s', async () => {
    // The simulated controller would take a minute: the test plays it once the pod was refused.
    sim.setFaults({ serviceAccountDelayMs: 60_000 });
    const fresh = `${ns}-sa`;
    await kube.create('Namespace', '', { metadata: { name: fresh, labels: managed } });
    const refused = await kube.create('Pod', fresh, pod('linux1')).catch((error: unknown) => error);
    expect((refused as KubeApiError).code).toBe(403);
    expect((refused as KubeApiError).statusMessage).toMatch(/error looking up service account .*\/default: serviceaccount "default" not found/);
    const waiting = waitForServiceAccount(kube, fresh, 'default', { timeoutMs: 60_000 });
    sim.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: fresh } });
    await waiting;
    const created = await kube.create('Pod', fresh, pod('linux1'));
    expect(created.spec?.serviceAccountName).toBe('default');
    const podCreates = sim.counters.requests().filter((entry) => entry.resource === 'pods' && entry.verb === 'create' && entry.namespace === fresh);
    expect(podCreates.map((entry) => entry.code)).toEqual([403, 201]);
    await kube.create('ResourceQuota', fresh, { metadata: { name: 'one-pod' }, spec: { hard: { pods: '1' } } });
    await waitForPodsRunning(kube, fresh, ['linux1'], { timeoutMs: 60_000 });
    await expect.poll(async () => (await kube.read('ResourceQuota', fresh, 'one-pod'))?.status?.used?.pods).toBe('1');
    const overQuota = await kube.create('Pod', fresh, pod('linux2')).catch((error: unknown) => error);
    expect((overQuota as KubeApiError).code).toBe(403);
    expect((overQuota as KubeApiError).statusMessage).toContain('exceeded quota: one-pod');
  });

  it('waits for pods Running by watch, surviving dropped watch connections', async () => {
    sim.setFaults({ podStartDelayMs: 400 });
    await kube.create('Pod', ns, pod('linux1'));
    await kube.create('Pod', ns, pod('linux2'));
    const waiting = waitForPodsRunning(kube, ns, ['linux1', 'linux2'], { timeoutMs: 60_000 });
    setTimeout(() => sim.dropWatches(), 150);
    await waiting;
    const pods = await kube.listAll('Pod', ns);
    expect(pods.items.every((p) => p.status?.phase === 'Running')).toBe(true);
  });

  it('fails fast on an image that cannot be pulled, with the reason and the container log', async () => {
    sim.setFaults({ imagePullFailure: ['broken/*'] });
    await kube.create('Pod', ns, pod('vqfx1', 'broken/vqfx'));
    // Its own deadline is beyond the test's: only failing fast (a WorkloadFailedError, not a timeout) ends it.
    const error = await waitForPodsRunning(kube, ns, ['vqfx1'], { timeoutMs: 60 * 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkloadFailedError);
    expect((error as Error).message).toMatch(/vqfx1: container vqfx1: (ImagePullBackOff|ErrImagePull)/);
  });

  it('fails fast on a crash loop and on a failed init container', async () => {
    sim.setFaults({ crash: ['crashy/*'], initFailure: ['badinit/*'] });
    await kube.create('Pod', ns, pod('crash1', 'crashy/img'));
    const crash = await waitForPodsRunning(kube, ns, ['crash1'], { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect((crash as Error).message).toMatch(/CrashLoopBackOff/);
    expect((crash as WorkloadFailedError).logs).toMatch(/segmentation fault/);
    const init = pod('init1');
    init.spec!.initContainers = [{ name: 'copy', image: 'badinit/copier' }];
    await kube.create('Pod', ns, init);
    const initError = await waitForPodsRunning(kube, ns, ['init1'], { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect((initError as Error).message).toMatch(/init container copy failed/);
  });

  it('times out naming what was still missing', async () => {
    const error = await waitForPodsRunning(kube, ns, ['never'], { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as Error).message).toMatch(/never: not created/);
  });

  it('waits for jobs: success, and failure once backoffLimit is used up, with the job pod log', async () => {
    sim.setFaults({ jobFailures: [{ pattern: 'bad-*', times: 5 }] });
    await kube.create('Job', ns, job('good-config'));
    await waitForJobsComplete(kube, ns, ['good-config'], { timeoutMs: 60_000 });
    await kube.create('Job', ns, job('bad-config'));
    const error = await waitForJobsComplete(kube, ns, ['bad-config'], { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkloadFailedError);
    expect((error as Error).message).toMatch(/bad-config failed: BackoffLimitExceeded/);
    expect((error as WorkloadFailedError).logs).toMatch(/configuration failed/);
  });

  it('waits for a deleted namespace to be gone', async () => {
    sim.setFaults({ namespaceDeleteDelayMs: 300 });
    await kube.create('Pod', ns, pod('linux1'));
    expect(await kube.delete('Namespace', '', ns)).toBe(true);
    await waitForNamespaceGone(kube, ns, { timeoutMs: 60_000 });
    expect(await kube.read('Namespace', '', ns)).toBeUndefined();
  });
});
