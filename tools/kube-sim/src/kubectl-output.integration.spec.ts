import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startSim, until, type SimFixture } from '../test/sim-fixture.js';

const run = promisify(execFile);

/** What `kubectl get` prints comes from the server's Table answers and discovery categories. */
describe('kubectl get output from kube-sim', () => {
  let fixture: SimFixture;
  const kubectl = async (...args: string[]): Promise<string> =>
    (await run('kubectl', ['--kubeconfig', fixture.kubeconfig, ...args], { timeout: 120_000 })).stdout;
  const rows = (output: string): string[][] =>
    output
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s{2,}/));

  beforeAll(async () => {
    fixture = await startSim({ faults: { crash: ['crashy'] } });
    await fixture.core.createNamespace({ body: { metadata: { name: 'table' } } });
    await fixture.core.createNamespacedPod({ namespace: 'table', body: pod('web') });
    await fixture.core.createNamespacedPod({ namespace: 'table', body: pod('broken', 'example/crashy:1') });
    await fixture.core.createNamespacedService({
      namespace: 'table',
      body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
    });
    await fixture.batch.createNamespacedJob({
      namespace: 'table',
      body: { metadata: { name: 'config' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'config' }] } } } },
    });
    await until(async () => (await fixture.core.readNamespacedPod({ namespace: 'table', name: 'web' })).status?.phase === 'Running');
    await until(async () => (await fixture.core.readNamespacedPod({ namespace: 'table', name: 'broken' })).status?.phase === 'Running');
  });
  afterAll(() => fixture?.sim.stop());

  it('get pods -A shows the NAMESPACE, READY, STATUS and RESTARTS columns', async () => {
    const table = rows(await kubectl('get', 'pods', '-A'));
    expect(table[0]).toEqual(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    const byName = new Map(table.slice(1).map((row) => [row[1], row]));
    expect(byName.get('web')?.slice(0, 5)).toEqual(['table', 'web', '1/1', 'Running', '0']);
    expect(byName.get('broken')?.slice(2, 4)).toEqual(['0/1', 'CrashLoopBackOff']);
    expect(byName.get('broken')?.[4]).toMatch(/^3 \(\d+s ago\)$/);
  }, 180_000);

  it('get pods -o wide adds the IP and NODE columns', async () => {
    const table = rows(await kubectl('get', 'pods', '-n', 'table', '-o', 'wide', '--field-selector', 'metadata.name=web'));
    expect(table[0]).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    const ip = (await fixture.core.readNamespacedPod({ namespace: 'table', name: 'web' })).status?.podIP;
    expect(table[1].slice(5, 7)).toEqual([ip, 'kube-sim-node']);
  }, 180_000);

  it('get namespaces and services show their columns', async () => {
    expect(rows(await kubectl('get', 'namespaces', 'table'))).toEqual([
      ['NAME', 'STATUS', 'AGE'],
      ['table', 'Active', expect.stringMatching(/^\d+s$/)],
    ]);
    const services = rows(await kubectl('get', 'services', '-n', 'table'));
    expect(services[0]).toEqual(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    expect(services[1].slice(0, 5)).toEqual(['web', 'ClusterIP', expect.stringMatching(/^127\./), '<none>', '80/TCP']);
  }, 180_000);

  it('get all lists the pods, services and jobs of a namespace', async () => {
    const output = await kubectl('get', 'all', '-n', 'table', '-o', 'name');
    const names = output.trim().split('\n');
    expect(names.filter((name) => !name.startsWith('pod/config-')).sort()).toEqual(['job.batch/config', 'pod/broken', 'pod/web', 'service/web']);
  }, 180_000);

  it('watches asked as Table get a Table per event (kubectl get -w)', async () => {
    const controller = new AbortController();
    const response = await fixture.sim.fetch(`/api/v1/namespaces/table/pods?watch=1&fieldSelector=metadata.name%3Dweb`, {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const event = JSON.parse(text.split('\n')[0]) as { type: string; object: { kind: string; rows: { cells: unknown[] }[] } };
    expect(event).toMatchObject({ type: 'ADDED', object: { kind: 'Table' } });
    expect(event.object.rows[0].cells.slice(0, 3)).toEqual(['web', '1/1', 'Running']);
  }, 180_000);

  it('client-node still gets plain lists', async () => {
    const list = await fixture.core.listNamespacedPod({ namespace: 'table' });
    expect(list.items.map((item) => item.metadata?.name)).toEqual(expect.arrayContaining(['web', 'broken']));
  }, 180_000);
});
