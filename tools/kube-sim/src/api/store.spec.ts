import { describe, expect, it } from 'vitest';
import type { KubeObject } from './object.js';
import { ObjectStore } from './store.js';

const pod = (namespace: string, name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } });
const names = (objects: Iterable<Readonly<KubeObject>>) => [...objects].map((object) => `${object.metadata.namespace}/${object.metadata.name}`).sort();

describe('ObjectStore by namespace', () => {
  it('lists, counts and peeks a namespace through creates, replaces and removals', () => {
    const store = new ObjectStore();
    for (const [namespace, name] of [
      ['a', 'p1'],
      ['b', 'p1'],
      ['a', 'p2'],
    ])
      store.create('/pods', pod(namespace, name));
    store.replace('/pods', { ...store.get('/pods', 'a', 'p1')!, status: { phase: 'Running' } });
    store.remove('/pods', 'b', 'p1');
    expect(store.list('/pods', 'a').map((object) => object.metadata.name)).toEqual(['p1', 'p2']);
    expect(store.list('/pods', 'a')[0].status).toEqual({ phase: 'Running' });
    expect(store.list('/pods', 'b')).toEqual([]);
    expect([store.count('/pods'), store.count('/pods', 'a'), store.count('/pods', 'b')]).toEqual([2, 2, 0]);
    expect(names(store.peek('/pods'))).toEqual(['a/p1', 'a/p2']);
    expect(names(store.peek('/pods', 'c'))).toEqual([]);
  });

  it('hands out copies from list and get: changing one leaves the store as it was', () => {
    const store = new ObjectStore();
    store.create('/pods', pod('a', 'p1'));
    store.list('/pods', 'a')[0].metadata.labels = { changed: 'yes' };
    expect(store.get('/pods', 'a', 'p1')?.metadata.labels).toBeUndefined();
  });

  it("keeps each event's object as it was written: later replaces, removals and what callers do to their copies change no event", () => {
    const store = new ObjectStore();
    const created = store.create('/pods', pod('a', 'p1'));
    created.metadata.labels = { changed: 'by the caller' };
    store.replace('/pods', { ...store.get('/pods', 'a', 'p1')!, status: { phase: 'Running' } });
    store.remove('/pods', 'a', 'p1');
    const events = store.eventsSince(0, '/pods');
    expect(
      events.map((event) => [
        event.type,
        event.object.metadata.resourceVersion === String(event.resourceVersion),
        event.object.status?.phase,
        event.object.metadata.labels,
      ]),
    ).toEqual([
      ['ADDED', true, undefined, undefined],
      ['MODIFIED', true, 'Running', undefined],
      ['DELETED', true, 'Running', undefined],
    ]);
    expect(events[1].previous?.metadata.resourceVersion).toBe(String(events[0].resourceVersion));
  });
});
