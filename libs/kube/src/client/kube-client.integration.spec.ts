import { ensureNadCrd } from '@antidote/crd';
import type { KubeSim } from '@antidote/kube-sim';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { managed, pod, startSimClient } from '../../test/sim-client.js';
import { kubeCrdClient } from '../waits/crd-client.js';
import { waitForServiceAccount } from '../waits/namespace-waits.js';
import { KubeApiError } from './kube-api.error.js';
import { KubeClient } from './kube-client.js';
import { admissionTicket, withWritePriority } from './write-priority.js';

describe('KubeClient against kube-sim', () => {
  let sim: KubeSim;
  let kube: KubeClient;
  let ns: string;
  let counter = 0;

  beforeAll(async () => {
    ({ sim, kube } = await startSimClient({ pageSize: 3, ownerLabel: { key: 'antidoteManaged', value: 'yes' } }));
  });
  afterAll(() => sim.stop());
  beforeEach(async () => {
    sim.resetFaults();
    ns = `client-test-${++counter}`;
    await kube.create('Namespace', '', { metadata: { name: ns, labels: managed } });
  });

  it('adopts an object it owns on 409, refuses one it does not, and deletes tolerating 404', async () => {
    const first = await kube.create('Service', ns, { metadata: { name: 'svc', labels: managed }, spec: { ports: [{ port: 22 }] } });
    const again = await kube.create('Service', ns, { metadata: { name: 'svc', labels: managed }, spec: { ports: [{ port: 22 }] } });
    expect(again.metadata?.uid).toBe(first.metadata?.uid);
    await kube.create('Secret', ns, { metadata: { name: 'foreign' }, stringData: { a: 'b' } });
    const refused = await kube.create('Secret', ns, { metadata: { name: 'foreign', labels: managed } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KubeApiError);
    expect((refused as KubeApiError).reason).toBe('AlreadyExists');
    expect(await kube.delete('Service', ns, 'svc')).toBe(true);
    expect(await kube.delete('Service', ns, 'svc')).toBe(false);
    expect(await kube.read('Service', ns, 'svc')).toBeUndefined();
  });

  it('ensures an object as create does without reading the answer: made, adopted when ours, refused when not', async () => {
    await kube.ensure('Secret', ns, { metadata: { name: 'ours', labels: managed }, stringData: { a: 'b' } });
    const made = await kube.read('Secret', ns, 'ours');
    expect(made?.data).toEqual({ a: Buffer.from('b').toString('base64') });
    await kube.ensure('Secret', ns, { metadata: { name: 'ours', labels: managed }, stringData: { a: 'c' } });
    expect((await kube.read('Secret', ns, 'ours'))?.metadata?.uid).toBe(made?.metadata?.uid);
    await kube.create('Secret', ns, { metadata: { name: 'foreign' }, stringData: { a: 'b' } });
    const refused = await kube.ensure('Secret', ns, { metadata: { name: 'foreign', labels: managed } }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 409, reason: 'AlreadyExists' });
  });

  it('lists every page with continue tokens', async () => {
    for (let i = 0; i < 7; i++) await kube.create('Secret', ns, { metadata: { name: `s${i}`, labels: managed } });
    const before = kube.callCount();
    const all = await kube.listAll('Secret', ns, { labelSelector: 'antidoteManaged=yes' });
    expect(all.items.map((s) => s.metadata?.name).sort()).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6']);
    expect(kube.callCount() - before).toBe(3);
    const pages = [];
    for await (const page of kube.pages('Secret', ns, { labelSelector: 'antidoteManaged=yes' })) pages.push(page.items.length);
    expect(pages).toEqual([3, 3, 1]);
  });

  it('gives a child client its own call count, on the same connection and observer', async () => {
    const observed: string[] = [];
    const parent = new KubeClient(kube.http, { timeoutMs: 30_000, retries: 0, onCall: (event) => observed.push(event.verb) });
    const child = parent.child();
    await child.list('Pod', ns);
    await parent.read('Namespace', '', ns);
    expect([parent.callCount(), child.callCount()]).toEqual([1, 1]);
    expect(observed).toEqual(['list', 'get']);
  });

  it('names itself in the User-Agent of every call and watch, as the API server logs it', async () => {
    await waitForServiceAccount(kube, ns, 'default', { timeoutMs: 60_000 });
    sim.counters.reset();
    await kube.create('Pod', ns, pod('linux1'));
    await kube.listAll('Pod', ns);
    // An informer always watches after its list.
    const stop = new AbortController();
    kube.informer('Pod', {}).start(stop.signal);
    await expect.poll(() => sim.counters.requests().some((call) => call.verb === 'watch')).toBe(true);
    stop.abort();
    const calls = sim.counters.requests();
    expect(new Set(calls.map((call) => call.verb))).toEqual(new Set(['create', 'list', 'watch']));
    expect(calls.map((call) => call.userAgent)).toEqual(calls.map(() => 'antidote-client-test'));
  });

  it('retries 503s and registers the NAD CRD (ensureNadCrd through the client)', async () => {
    sim.setFaults({ errors: [{ verb: 'create', resource: 'customresourcedefinitions', code: 503, count: 2 }] });
    const crd = await ensureNadCrd(kubeCrdClient(kube), { timeoutMs: 60_000 });
    expect(crd.metadata?.name).toBe('network-attachment-definitions.k8s.cni.cncf.io');
    await kube.create('NetworkAttachmentDefinition', ns, {
      apiVersion: 'k8s.cni.cncf.io/v1',
      kind: 'NetworkAttachmentDefinition',
      metadata: { name: 'net', labels: managed },
      spec: { config: '{}' },
    });
    expect((await kube.listAll('NetworkAttachmentDefinition', ns)).items).toHaveLength(1);
  });
});

describe('KubeClient connections', () => {
  // A fresh kube-sim and client of their own. (Open question: after the waits and aborted watches of the
  // suite above, the same client was seen opening one connection per call again.)
  it('keeps its connections: many calls, few TCP connections (client-node alone opens one per call)', async () => {
    const { sim, kube } = await startSimClient({ pageSize: 3, ownerLabel: { key: 'antidoteManaged', value: 'yes' } });
    try {
      const before = sim.stats().connectionsAccepted;
      for (let i = 0; i < 20; i++) await kube.read('Namespace', '', 'default');
      await Promise.all(Array.from({ length: 5 }, () => kube.listAll('Pod', 'default')));
      // One call at a time needs one connection; the 5 at once may open up to 5 more.
      expect(sim.stats().connectionsAccepted - before).toBeLessThanOrEqual(6);
    } finally {
      await sim.stop();
    }
  });
});

describe('KubeClient write priority', () => {
  it('with writes bounded, the writes of the work admitted first go first', async () => {
    const { sim, kube } = await startSimClient({ maxConcurrentWrites: 1 });
    try {
      const [older, newer] = [admissionTicket(), admissionTicket()];
      const secret = (name: string) => ({ metadata: { name } });
      // The first write takes the only slot; the other two wait, asked for newest-ticket first.
      const writes = [
        kube.create('Secret', 'default', secret('holder')),
        withWritePriority(newer, () => kube.create('Secret', 'default', secret('newer'))),
        withWritePriority(older, () => kube.create('Secret', 'default', secret('older'))),
      ];
      const [, late, early] = await Promise.all(writes);
      expect(Number(early.metadata!.resourceVersion)).toBeLessThan(Number(late.metadata!.resourceVersion));
    } finally {
      await sim.stop();
    }
  });
});
