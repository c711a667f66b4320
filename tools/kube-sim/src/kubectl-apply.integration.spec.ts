import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startSim, type SimFixture } from '../test/sim-fixture.js';

const run = promisify(execFile);

/** kubectl validates manifests through kube-sim's OpenAPI v3 (fieldValidation=Strict), as against a 1.27+ API server. */
describe('kubectl apply/create with validation on', () => {
  let fixture: SimFixture;
  const kubectl = async (...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> => {
    try {
      const { stdout, stderr } = await run(
        'kubectl',
        ['--kubeconfig', fixture.kubeconfig, '--cache-dir', join(dirname(fixture.kubeconfig), 'cache'), ...args],
        { timeout: 120_000 },
      );
      return { stdout, stderr, code: 0 };
    } catch (error) {
      const failed = error as { stdout: string; stderr: string; code: number };
      return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
    }
  };
  const manifest = (name: string, ...objects: unknown[]): string => {
    const path = join(dirname(fixture.kubeconfig), name);
    writeFileSync(path, objects.map((object) => stringify(object)).join('---\n'));
    return path;
  };
  const pod = (extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'checked', namespace: 'default' },
    spec: { containers: [{ name: 'main', image: 'nginx', ...extra }] },
  });

  beforeAll(async () => {
    fixture = await startSim();
  });
  afterAll(() => fixture?.sim.stop());

  it('serves the OpenAPI v3 index, a group-version document and OpenAPI v2 as JSON', async () => {
    const index = (await (await fixture.sim.fetch(`/openapi/v3`)).json()) as { paths: Record<string, { serverRelativeURL: string }> };
    expect(Object.keys(index.paths)).toEqual(expect.arrayContaining(['api/v1', 'apis/batch/v1', 'apis/coordination.k8s.io/v1']));
    const core = (await (await fixture.sim.fetch(`${index.paths['api/v1'].serverRelativeURL}`)).json()) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(Object.keys(core.components.schemas['io.k8s.api.core.v1.Container'].properties ?? {})).toEqual(expect.arrayContaining(['name', 'image', 'ports']));
    const v2 = (await (await fixture.sim.fetch(`/openapi/v2`, { headers: { Accept: 'application/json' } })).json()) as {
      swagger: string;
      definitions: Record<string, unknown>;
    };
    expect(v2.swagger).toBe('2.0');
    expect(v2.definitions['io.k8s.api.batch.v1.Job']).toBeDefined();
  }, 180_000);

  it('applies and creates valid manifests without --validate=false', async () => {
    const applied = await kubectl('apply', '-f', manifest('pod.yaml', pod()));
    expect(applied).toMatchObject({ code: 0, stdout: 'pod/checked created\n' });
    // A changed manifest is patched in place. (A Pod's spec is mostly immutable on a real server, and
    // kube-sim reads kubectl's strategic merge patch as a merge patch, which would replace its containers.)
    const settings = (value: string) =>
      manifest('app.yaml', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app', namespace: 'default' }, data: { mode: value } });
    expect((await kubectl('apply', '-f', settings('one'))).stdout).toBe('configmap/app created\n');
    expect((await kubectl('apply', '-f', settings('two'))).stdout).toBe('configmap/app configured\n');
    expect((await fixture.core.readNamespacedConfigMap({ namespace: 'default', name: 'app' })).data).toEqual({ mode: 'two' });
    const created = await kubectl(
      'create',
      '-f',
      manifest('cm.yaml', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { a: 'b' } }),
    );
    expect(created).toMatchObject({ code: 0, stdout: 'configmap/settings created\n' });
  }, 180_000);

  it('refuses a manifest with an unknown field as a real API server makes kubectl refuse it', async () => {
    const refused = await kubectl(
      'create',
      '-f',
      manifest('bad.yaml', { ...pod({ imagePullPolicyy: 'Always' }), metadata: { name: 'bad', namespace: 'default' } }),
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolicyy"',
    );
    expect((await kubectl('get', 'pod', 'bad')).code).not.toBe(0);
    const ignored = await kubectl(
      'create',
      '--validate=false',
      '-f',
      manifest('bad.yaml', { ...pod({ imagePullPolicyy: 'Always' }), metadata: { name: 'bad', namespace: 'default' } }),
    );
    expect(ignored.code).toBe(0);
    const stored = await fixture.core.readNamespacedPod({ namespace: 'default', name: 'bad' });
    expect(Object.keys(stored.spec!.containers[0])).not.toContain('imagePullPolicyy');
  }, 180_000);

  it('validates custom resources against their CRD schema', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
          },
        ],
      },
    };
    expect((await kubectl('apply', '-f', manifest('crd.yaml', crd))).code).toBe(0);
    expect((await kubectl('wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=120s')).code).toBe(0);
    const widget = (spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec });
    expect(await kubectl('apply', '-f', manifest('widget.yaml', widget({ size: 3 })))).toMatchObject({ code: 0, stdout: 'widget.example.com/w created\n' });
    const refused = await kubectl('apply', '-f', manifest('widget.yaml', widget({ size: 4, colour: 'red' })));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('strict decoding error: unknown field "spec.colour"');
  }, 180_000);
});
