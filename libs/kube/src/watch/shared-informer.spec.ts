import { describe, expect, it, vi } from 'vitest';
import type { V1ManagedFieldsEntry } from '@kubernetes/client-node';
import { FakeWatchSource } from '../../test/fake-watch-source.js';
import { metadataAndStatus } from './cache-view.js';
import { SharedInformer } from './shared-informer.js';
import type { WaitVerdict } from './watch-until.js';

interface Item {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  ready?: boolean;
}
const item = (namespace: string, name: string, ready = false): Item => ({ metadata: { name, namespace }, ready });
const allReady =
  (names: string[]) =>
  (objects: ReadonlyMap<string, Item>): WaitVerdict<void> =>
    names.every((name) => objects.get(name)?.ready) ? { state: 'done', value: undefined } : { state: 'waiting', progress: 'not ready' };

function setup() {
  const source = new FakeWatchSource<Item>();
  const informer = new SharedInformer<Item>(source, { clusterScoped: false });
  const controller = new AbortController();
  informer.start(controller.signal);
  return { source, informer, controller };
}

describe('SharedInformer', () => {
  it('answers many waits from one list and one watch, each for its own namespace', async () => {
    const { source, informer, controller } = setup();
    const a = informer.waitFor('a', allReady(['p1', 'p2']), { timeoutMs: 60_000, what: 'a' });
    const b = informer.waitFor('b', allReady(['p1']), { timeoutMs: 60_000, what: 'b' });
    await vi.waitFor(() => expect(source.open).toBe(1));
    source.upsert(item('a', 'p1', true));
    source.upsert(item('b', 'p1', true));
    await expect(b).resolves.toBeUndefined();
    source.upsert(item('a', 'p2', true));
    await expect(a).resolves.toBeUndefined();
    expect(source.listCalls).toBe(1);
    expect(source.watchedFrom).toHaveLength(1);
    controller.abort();
    await informer.stopped();
  });

  it('keeps waiting across a dropped watch and a 410 re-list, and sees what happened meanwhile', async () => {
    const { source, informer, controller } = setup();
    await vi.waitFor(() => expect(source.open).toBe(1));
    const wait = informer.waitFor('a', allReady(['p1']), { timeoutMs: 60_000, what: 'a' });
    source.drop();
    source.upsert(item('a', 'p1'));
    await vi.waitFor(() => expect(source.watchedFrom).toHaveLength(2));
    source.drop();
    source.upsert(item('a', 'p1', true));
    source.compact();
    await expect(wait).resolves.toBeUndefined();
    expect(informer.relists).toBe(1);
    controller.abort();
  });

  it('reports deletions found by a re-list to its listeners', async () => {
    const { source, informer, controller } = setup();
    source.upsert(item('a', 'p1'));
    await vi.waitFor(() => expect(informer.hasSynced).toBe(true));
    const deleted: string[] = [];
    informer.onChange((type, object, scope) => type === 'DELETED' && deleted.push(`${scope}/${object.metadata?.name}`));
    source.drop();
    source.remove('p1');
    source.compact();
    await vi.waitFor(() => expect(deleted).toEqual(['a/p1']));
    expect(informer.objectsIn('a').size).toBe(0);
    controller.abort();
  });

  it('reports every object a re-list still finds as modified when the cache keeps no resource version', async () => {
    const source = new FakeWatchSource<Item>();
    const withoutVersion = ({ metadata, ready }: Item): Item => ({ metadata: { name: metadata?.name, namespace: metadata?.namespace }, ready });
    const informer = new SharedInformer<Item>(source, { clusterScoped: false, keep: withoutVersion });
    const controller = new AbortController();
    informer.start(controller.signal);
    source.upsert(item('a', 'p1'));
    source.upsert(item('a', 'p2'));
    await vi.waitFor(() => expect(informer.hasSynced).toBe(true));
    const modified: string[] = [];
    informer.onChange((type, object) => type === 'MODIFIED' && modified.push(`${object.metadata?.name}:${object.ready}`));
    source.drop();
    source.upsert(item('a', 'p1', true));
    source.compact();
    await vi.waitFor(() => expect(informer.relists).toBe(1));
    await vi.waitFor(() => expect(modified.sort()).toEqual(['p1:true', 'p2:false']));
    expect(informer.get('a', 'p1')?.metadata).toEqual({ name: 'p1', namespace: 'a' });
    controller.abort();
  });

  it('fails a wait on its deadline, on abort, and when the evaluation says so', async () => {
    const { source, informer, controller } = setup();
    await vi.waitFor(() => expect(source.open).toBe(1));
    await expect(informer.waitFor('a', allReady(['never']), { timeoutMs: 50, what: 'never' })).rejects.toThrow(
      /timed out after 0 s waiting for never \(not ready\)/,
    );
    const stop = new AbortController();
    const cancelled = informer.waitFor('a', allReady(['never']), { timeoutMs: 60_000, signal: stop.signal, what: 'never' });
    stop.abort();
    await expect(cancelled).rejects.toThrow(/cancelled/);
    await expect(informer.waitFor('a', () => ({ state: 'failed', error: new Error('broken') }), { timeoutMs: 60_000, what: 'x' })).rejects.toThrow('broken');
    controller.abort();
  });

  it('fails every wait when the watch fails for good', async () => {
    const { source, informer } = setup();
    await vi.waitFor(() => expect(source.open).toBe(1));
    const wait = informer.waitFor('a', allReady(['p1']), { timeoutMs: 60_000, what: 'a' });
    const { KubeApiError } = await import('../client/kube-api.error.js');
    source.fail(new KubeApiError({ verb: 'watch', resource: 'fake' }, { code: 403, reason: 'Forbidden', message: 'no' }));
    await expect(wait).rejects.toMatchObject({ code: 403 });
  });

  it('holds what `keep` keeps of each object, from the list and from the watch alike', async () => {
    type Pod = {
      metadata?: {
        name?: string;
        namespace?: string;
        labels?: Record<string, string>;
        annotations?: Record<string, string>;
        managedFields?: V1ManagedFieldsEntry[];
      };
      spec?: unknown;
      status?: { phase: string };
    };
    const source = new FakeWatchSource<Pod>();
    const pod = (name: string, phase: string): Pod => ({
      metadata: { name, namespace: 'a', labels: { app: name }, annotations: { big: 'x'.repeat(1000) }, managedFields: [{ manager: 'kubectl' }] },
      spec: { containers: [{ name: 'c', image: 'i' }] },
      status: { phase },
    });
    source.upsert(pod('listed', 'Pending'));
    const informer = new SharedInformer<Pod>(source, { clusterScoped: false, keep: metadataAndStatus });
    const controller = new AbortController();
    informer.start(controller.signal);
    await vi.waitFor(() => expect(source.open).toBe(1));
    source.upsert(pod('watched', 'Running'));
    await vi.waitFor(() => expect(informer.get('a', 'watched')).toBeDefined());
    for (const [name, phase] of [
      ['listed', 'Pending'],
      ['watched', 'Running'],
    ]) {
      const cached = informer.get('a', name)!;
      expect(cached).toEqual({ metadata: { name, namespace: 'a', labels: { app: name }, resourceVersion: expect.any(String) as string }, status: { phase } });
    }
    controller.abort();
  });
});
