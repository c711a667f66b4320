import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startSim, until, type SimFixture } from '../test/sim-fixture.js';

const job = (name: string, backoffLimit: number) => ({
  metadata: { name, labels: { jobType: 'config' } },
  spec: {
    backoffLimit,
    template: {
      metadata: { labels: { configPod: 'yes' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'configurator', image: 'antidotelabs/configurator' }] },
    },
  },
});

describe('simulated controllers', () => {
  let fixture: SimFixture;
  beforeAll(async () => {
    fixture = await startSim({
      faults: {
        imagePullFailure: ['broken-image'],
        crash: ['crashy'],
        initFailure: ['bad-init'],
        jobFailures: [
          { pattern: 'flaky-*', times: 2 },
          { pattern: 'doomed-*', times: 99 },
        ],
      },
    });
    await fixture.core.createNamespace({ body: { metadata: { name: 'c' } } });
  });
  afterAll(() => fixture?.sim.stop());

  const readPod = (name: string) => fixture.core.readNamespacedPod({ name, namespace: 'c' });

  it('reports an image that cannot be pulled as ErrImagePull then ImagePullBackOff, never Running', async () => {
    await fixture.core.createNamespacedPod({ namespace: 'c', body: pod('pull', 'registry/broken-image:1') });
    const reason = await until(async () => {
      const current = await readPod('pull');
      const waiting = current.status?.containerStatuses?.[0]?.state?.waiting?.reason;
      return waiting === 'ImagePullBackOff' ? waiting : undefined;
    });
    expect(reason).toBe('ImagePullBackOff');
    expect((await readPod('pull')).status?.phase).toBe('Pending');
  });

  it('reports a crashing container as CrashLoopBackOff with restarts and logs', async () => {
    await fixture.core.createNamespacedPod({ namespace: 'c', body: pod('crash', 'crashy') });
    const status = await until(async () => (await readPod('crash')).status?.containerStatuses?.[0]);
    await until(async () => (await readPod('crash')).status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff');
    expect(status).toBeDefined();
    const log = await fixture.core.readNamespacedPodLog({ name: 'crash', namespace: 'c', container: 'main' });
    expect(log).toContain('exited with code 1');
  });

  it('reports a failing init container as terminated with a non-zero exit code', async () => {
    const body = pod('init', 'fine');
    body.spec!.initContainers = [{ name: 'copy-local-files', image: 'bad-init' }];
    await fixture.core.createNamespacedPod({ namespace: 'c', body });
    const exitCode = await until(async () => (await readPod('init')).status?.initContainerStatuses?.[0]?.state?.terminated?.exitCode);
    expect(exitCode).toBe(1);
  });

  it('runs a job to completion, retrying failed pods within backoffLimit', async () => {
    await fixture.batch.createNamespacedJob({ namespace: 'c', body: job('flaky-config', 3) });
    const done = await until(async () => {
      const current = await fixture.batch.readNamespacedJob({ name: 'flaky-config', namespace: 'c' });
      return current.status?.conditions?.find((condition) => condition.type === 'Complete') ? current : undefined;
    });
    expect(done.status).toMatchObject({ failed: 2, succeeded: 1 });
    const pods = await fixture.core.listNamespacedPod({ namespace: 'c', labelSelector: 'job-name=flaky-config' });
    expect(pods.items).toHaveLength(3);
  });

  it('fails a job after backoffLimit retries (1 + backoffLimit pods)', async () => {
    await fixture.batch.createNamespacedJob({ namespace: 'c', body: job('doomed-config', 2) });
    const failed = await until(async () => {
      const current = await fixture.batch.readNamespacedJob({ name: 'doomed-config', namespace: 'c' });
      return current.status?.conditions?.find((condition) => condition.type === 'Failed') ? current : undefined;
    });
    expect(failed.status?.failed).toBe(3);
    expect(failed.status?.conditions?.[0]?.reason).toBe('BackoffLimitExceeded');
  });

  it('deletes a job with its pods under Background propagation, and leaves them when orphaned', async () => {
    await fixture.batch.createNamespacedJob({ namespace: 'c', body: job('background', 0) });
    await fixture.batch.createNamespacedJob({ namespace: 'c', body: job('orphaned', 0) });
    const podsOf = async (name: string) => (await fixture.core.listNamespacedPod({ namespace: 'c', labelSelector: `job-name=${name}` })).items;
    await until(async () => (await podsOf('background')).length === 1 && (await podsOf('orphaned')).length === 1);
    await fixture.batch.deleteNamespacedJob({ name: 'background', namespace: 'c', propagationPolicy: 'Background' });
    await fixture.batch.deleteNamespacedJob({ name: 'orphaned', namespace: 'c' });
    expect(await podsOf('background')).toHaveLength(0);
    expect(await podsOf('orphaned')).toHaveLength(1);
  });

  it('terminates a namespace: Terminating, then gone with everything in it', async () => {
    await fixture.core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await fixture.core.createNamespacedPod({ namespace: 'doomed', body: pod('p') });
    // A finalizer holds the namespace in Terminating for as long as the test needs (no race with the controller).
    await fixture.core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'hold', finalizers: ['example.com/hold'] } } });
    fixture.sim.setFaults({ namespaceDeleteDelayMs: 300 });
    await fixture.core.deleteNamespace({ name: 'doomed' });
    expect((await fixture.core.readNamespace({ name: 'doomed' })).status?.phase).toBe('Terminating');
    await expect(fixture.core.createNamespacedPod({ namespace: 'doomed', body: pod('late') })).rejects.toMatchObject({ code: 403 });
    await fixture.core.patchNamespacedConfigMap({ name: 'hold', namespace: 'doomed', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    await until(async () =>
      fixture.core.readNamespace({ name: 'doomed' }).then(
        () => undefined,
        (error: { code?: number }) => error.code === 404,
      ),
    );
    await expect(fixture.core.readNamespacedPod({ name: 'p', namespace: 'doomed' })).rejects.toMatchObject({ code: 404 });
    fixture.sim.setFaults({ namespaceDeleteDelayMs: 0 });
  });

  it('holds a namespace in Terminating while content keeps a finalizer, and lets it go once removed', async () => {
    await fixture.core.createNamespace({ body: { metadata: { name: 'held' } } });
    await fixture.core.createNamespacedConfigMap({ namespace: 'held', body: { metadata: { name: 'sticky', finalizers: ['example.com/hold'] } } });
    await fixture.core.deleteNamespace({ name: 'held' });
    const namespace = await until(async () => {
      const current = await fixture.core.readNamespace({ name: 'held' });
      return current.status?.conditions?.find((condition) => condition.type === 'NamespaceFinalizersRemaining' && condition.status === 'True')
        ? current
        : undefined;
    });
    expect(namespace.status?.phase).toBe('Terminating');
    await fixture.core.patchNamespacedConfigMap({ name: 'sticky', namespace: 'held', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    await until(async () =>
      fixture.core.readNamespace({ name: 'held' }).then(
        () => undefined,
        (error: { code?: number }) => error.code === 404,
      ),
    );
  });

  it('keeps a namespace matching the stuck fault Terminating until finalized', async () => {
    fixture.sim.setFaults({ stuckNamespaces: ['stuck-*'] });
    await fixture.core.createNamespace({ body: { metadata: { name: 'stuck-one' } } });
    await fixture.core.deleteNamespace({ name: 'stuck-one' });
    // Terminating with its content gone (the controller has run), still held by the 'kubernetes' finalizer.
    const stuck = await until(async () => {
      const current = await fixture.core.readNamespace({ name: 'stuck-one' });
      return current.status?.conditions?.some((condition) => condition.type === 'NamespaceContentRemaining' && condition.status === 'False')
        ? current
        : undefined;
    });
    expect(stuck.status?.phase).toBe('Terminating');
    expect(stuck.spec?.finalizers).toEqual(['kubernetes']);
    await fixture.core.replaceNamespaceFinalize({ name: 'stuck-one', body: { ...stuck, spec: { finalizers: [] } } });
    await until(async () =>
      fixture.core.readNamespace({ name: 'stuck-one' }).then(
        () => undefined,
        (error: { code?: number }) => error.code === 404,
      ),
    );
  });
});
