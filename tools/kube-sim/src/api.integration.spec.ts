import * as k8s from '@kubernetes/client-node';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startSim, until, type SimFixture } from '../test/sim-fixture.js';

describe('Kubernetes REST semantics', () => {
  let fixture: SimFixture;
  beforeAll(async () => {
    fixture = await startSim({ sshUsers: { antidote: 'antidotepassword' } });
    await fixture.core.createNamespace({ body: { metadata: { name: 'api' } } });
  });
  afterAll(() => fixture?.sim.stop());

  it('refuses duplicates, stale updates and invalid names with Status errors', async () => {
    await fixture.core.createNamespacedConfigMap({ namespace: 'api', body: { metadata: { name: 'cm' }, data: { a: '1' } } });
    await expect(fixture.core.createNamespacedConfigMap({ namespace: 'api', body: { metadata: { name: 'cm' } } })).rejects.toMatchObject({ code: 409 });
    const current = await fixture.core.readNamespacedConfigMap({ name: 'cm', namespace: 'api' });
    await fixture.core.replaceNamespacedConfigMap({ name: 'cm', namespace: 'api', body: { ...current, data: { a: '2' } } });
    await expect(fixture.core.replaceNamespacedConfigMap({ name: 'cm', namespace: 'api', body: { ...current, data: { a: '3' } } })).rejects.toMatchObject({
      code: 409,
    });
    await expect(fixture.core.createNamespacedConfigMap({ namespace: 'api', body: { metadata: { name: 'Not_Valid' } } })).rejects.toMatchObject({ code: 422 });
    await expect(fixture.core.createNamespacedConfigMap({ namespace: 'nowhere', body: { metadata: { name: 'x' } } })).rejects.toMatchObject({ code: 404 });
    const raw = await fixture.sim.fetch(`/api/v1/namespaces/api/configmaps`, {
      method: 'POST',
      body: '{broken',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
  });

  it('patches with JSON patch and merge patch', async () => {
    await fixture.core.createNamespacedConfigMap({ namespace: 'api', body: { metadata: { name: 'patched', labels: { a: 'x' } }, data: { k: 'v' } } });
    const patched = await fixture.core.patchNamespacedConfigMap({ name: 'patched', namespace: 'api', body: [{ op: 'add', path: '/data/n', value: 'new' }] });
    expect(patched.data).toEqual({ k: 'v', n: 'new' });
    const merged = await fixture.core.patchNamespacedConfigMap(
      { name: 'patched', namespace: 'api', body: { metadata: { labels: { a: null, b: 'y' } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(merged.metadata?.labels).toEqual({ b: 'y' });
  });

  it('selects by label (equality and set-based) and field, and pages lists', async () => {
    for (const [name, tier] of [
      ['s1', 'web'],
      ['s2', 'db'],
      ['s3', 'web'],
    ] as const) {
      await fixture.core.createNamespacedConfigMap({ namespace: 'api', body: { metadata: { name, labels: { sel: 'yes', tier } } } });
    }
    const names = async (labelSelector: string, fieldSelector?: string) =>
      (await fixture.core.listNamespacedConfigMap({ namespace: 'api', labelSelector, fieldSelector })).items.map((item) => item.metadata?.name);
    expect(await names('sel=yes,tier=web')).toEqual(['s1', 's3']);
    expect(await names('sel,tier in (db)')).toEqual(['s2']);
    expect(await names('sel=yes,tier notin (db)')).toEqual(['s1', 's3']);
    expect(await names('sel=yes', 'metadata.name!=s1')).toEqual(['s2', 's3']);
    const first = await fixture.core.listNamespacedConfigMap({ namespace: 'api', labelSelector: 'sel=yes', limit: 2 });
    expect(first.items).toHaveLength(2);
    const second = await fixture.core.listNamespacedConfigMap({ namespace: 'api', labelSelector: 'sel=yes', limit: 2, _continue: first.metadata!._continue! });
    expect(second.items.map((item) => item.metadata?.name)).toEqual(['s3']);
    expect(second.metadata?._continue).toBeUndefined();
  });

  it('serves custom resources once their CRD is registered', async () => {
    const extensions = fixture.config.makeApiClient(k8s.ApiextensionsV1Api);
    await extensions.createCustomResourceDefinition({
      body: {
        metadata: { name: 'network-attachment-definitions.k8s.cni.cncf.io' },
        spec: {
          group: 'k8s.cni.cncf.io',
          scope: 'Namespaced',
          names: {
            plural: 'network-attachment-definitions',
            singular: 'network-attachment-definition',
            kind: 'NetworkAttachmentDefinition',
            shortNames: ['net-attach-def'],
          },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } } }],
        },
      },
    });
    const custom = fixture.config.makeApiClient(k8s.CustomObjectsApi);
    await custom.createNamespacedCustomObject({
      group: 'k8s.cni.cncf.io',
      version: 'v1',
      namespace: 'api',
      plural: 'network-attachment-definitions',
      body: { apiVersion: 'k8s.cni.cncf.io/v1', kind: 'NetworkAttachmentDefinition', metadata: { name: 'a-b-net' }, spec: { config: '{}' } },
    });
    const list = (await custom.listNamespacedCustomObject({
      group: 'k8s.cni.cncf.io',
      version: 'v1',
      namespace: 'api',
      plural: 'network-attachment-definitions',
    })) as { items: { metadata: { name: string } }[] };
    expect(list.items.map((item) => item.metadata.name)).toEqual(['a-b-net']);
    const groups = await (await fixture.sim.fetch(`/apis/k8s.cni.cncf.io/v1`)).json();
    expect(groups).toMatchObject({
      groupVersion: 'k8s.cni.cncf.io/v1',
      resources: [expect.objectContaining({ name: 'network-attachment-definitions', kind: 'NetworkAttachmentDefinition' })],
    });
  });

  it('keeps leases consistent: a stale holder cannot overwrite a newer lease', async () => {
    const leases = fixture.config.makeApiClient(k8s.CoordinationV1Api);
    const lease = await leases.createNamespacedLease({
      namespace: 'api',
      body: { metadata: { name: 'reaper' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
    });
    await leases.replaceNamespacedLease({ name: 'reaper', namespace: 'api', body: { ...lease, spec: { ...lease.spec, holderIdentity: 'b' } } });
    await expect(
      leases.replaceNamespacedLease({ name: 'reaper', namespace: 'api', body: { ...lease, spec: { ...lease.spec, holderIdentity: 'a' } } }),
    ).rejects.toMatchObject({ code: 409 });
  });

  it('injects API errors and outages, and counts calls by verb, resource and code', async () => {
    fixture.sim.counters.reset();
    fixture.sim.setFaults({
      errors: [
        { verb: 'list', resource: 'configmaps', code: 429, count: 1, retryAfterSeconds: 2 },
        { verb: 'get', resource: 'configmaps', code: 500, count: 1 },
      ],
    });
    const limited = await fixture.sim.fetch(`/api/v1/namespaces/api/configmaps`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    await expect(fixture.core.readNamespacedConfigMap({ name: 'cm', namespace: 'api' })).rejects.toMatchObject({ code: 500 });
    await fixture.core.readNamespacedConfigMap({ name: 'cm', namespace: 'api' });
    fixture.sim.outage(200);
    await expect(fixture.core.listNamespace()).rejects.toMatchObject({ code: 503 });
    await until(() =>
      fixture.core.listNamespace().then(
        () => true,
        () => undefined,
      ),
    );
    const counts = fixture.sim.counters.snapshot().byKey;
    expect(counts).toMatchObject({ 'list configmaps 429': 1, 'get configmaps 500': 1, 'get configmaps 200': 1 });
    expect(counts['list namespaces 503']).toBeGreaterThanOrEqual(1);
    expect(((await (await fixture.sim.fetch(`/_sim/counters`)).json()) as { total: number }).total).toBeGreaterThanOrEqual(5);
  });

  it('runs a real SSH server on port 22 of running pods, with the configured credentials', async () => {
    await fixture.core.createNamespacedPod({ namespace: 'api', body: pod('sshd', 'utility', 22) });
    const running = await until(async () => {
      const current = await fixture.core.readNamespacedPod({ name: 'sshd', namespace: 'api' });
      return current.status?.phase === 'Running' ? current : undefined;
    });
    const login = (password: string) =>
      new Promise<string>((resolve) => {
        const client = new ssh2.Client();
        client.on('ready', () => {
          client.end();
          resolve('ok');
        });
        client.on('error', (error) => resolve(error.message));
        client.connect({ host: running.status!.podIP!, port: 22, username: 'antidote', password, readyTimeout: 30_000 });
      });
    expect(await login('antidotepassword')).toBe('ok');
    expect(await login('wrong')).toMatch(/authentication/i);
  });
});
