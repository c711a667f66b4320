import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, until, type SimFixture } from '../test/sim-fixture.js';

const run = promisify(execFile);

/** The machine's kubectl, unchanged, against kube-sim (installed by .ci/run where missing). */
describe('kubectl against kube-sim', () => {
  let fixture: SimFixture;
  const kubectl = async (...args: string[]): Promise<string> =>
    (await run('kubectl', ['--kubeconfig', fixture.kubeconfig, ...args], { timeout: 120_000 })).stdout;

  beforeAll(async () => {
    fixture = await startSim();
  });
  afterAll(() => fixture?.sim.stop());

  it('creates, lists, applies and deletes namespaces and pods', async () => {
    await kubectl('create', 'namespace', 'kubectl-test');
    expect(await kubectl('get', 'namespaces')).toContain('kubectl-test');
    const manifest = join(dirname(fixture.kubeconfig), 'pod.yaml');
    writeFileSync(
      manifest,
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata:',
        '  name: web',
        '  namespace: kubectl-test',
        '  labels: {app: web}',
        'spec:',
        '  containers:',
        '  - name: web',
        '    image: nginx',
        '    ports: [{containerPort: 80}]',
        '',
      ].join('\n'),
    );
    await kubectl('apply', '-f', manifest);
    await until(async () => {
      const pod = JSON.parse(await kubectl('get', 'pod', 'web', '-n', 'kubectl-test', '-o', 'json')) as { status?: { phase?: string } };
      return pod.status?.phase === 'Running' || undefined;
    });
    const pods = JSON.parse(await kubectl('get', 'pods', '-n', 'kubectl-test', '-l', 'app=web', '-o', 'json')) as { items: { metadata: { name: string } }[] };
    expect(pods.items.map((item) => item.metadata.name)).toEqual(['web']);
    await kubectl('apply', '-f', manifest);
    await kubectl('delete', 'pod', 'web', '-n', 'kubectl-test');
    expect(await kubectl('get', 'pods', '-n', 'kubectl-test', '-o', 'name')).toBe('');
    await kubectl('delete', 'namespace', 'kubectl-test', '--wait=true', '--timeout=120s');
    expect(await kubectl('get', 'namespaces', '-o', 'name')).not.toContain('kubectl-test');
  }, 180_000);
});
