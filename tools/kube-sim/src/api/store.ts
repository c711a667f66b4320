import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { clone, type KubeObject } from './object.js';
import type { ResourceType } from './resources.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** A change to the store, as watchers and controllers get it: read only (it holds stored objects). */
export interface StoreEvent {
  type: WatchEventType;
  resourceVersion: number;
  resource: string;
  namespace?: string;
  object: KubeObject;
  /** The object before a MODIFIED (filtered watches turn a change across their selector into ADDED/DELETED). */
  previous?: KubeObject;
}

/** `group/plural` — how objects of one kind are grouped (versions share storage). */
export const resourceKey = (type: Pick<ResourceType, 'group' | 'plural'>): string => `${type.group}/${type.plural}`;

const MAX_HISTORY = 20_000;

/**
 * All objects, one global resourceVersion counter, and a bounded event history that watches replay
 * from. Compaction (a fault) drops history so a resume from an old version gets 410 Gone.
 */
export class ObjectStore extends EventEmitter<{ event: [StoreEvent] }> {
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  /** The same objects by kind and namespace: a namespace's list costs its objects, not the whole kind's. */
  private readonly byNamespace = new Map<string, Map<string, Map<string, KubeObject>>>();
  private readonly history: StoreEvent[] = [];
  private version = 1;
  /** Oldest resourceVersion a watch may resume from. */
  private oldest = 1;

  constructor() {
    super();
    this.setMaxListeners(0);
  }

  get currentVersion(): number {
    return this.version;
  }

  get oldestVersion(): number {
    return this.oldest;
  }

  private bucket(resource: string): Map<string, KubeObject> {
    let bucket = this.objects.get(resource);
    if (!bucket) this.objects.set(resource, (bucket = new Map<string, KubeObject>()));
    return bucket;
  }

  private static id(namespace: string | undefined, name: string): string {
    return `${namespace ?? ''}/${name}`;
  }

  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const object = this.peekOne(resource, namespace, name);
    return object ? clone(object) : undefined;
  }

  /** The stored object itself, not a copy — for reading only, as `peek`. */
  peekOne(resource: string, namespace: string | undefined, name: string): Readonly<KubeObject> | undefined {
    return this.bucket(resource).get(ObjectStore.id(namespace, name));
  }

  private namespaceBucket(resource: string, namespace: string | undefined): Map<string, KubeObject> | undefined {
    return this.byNamespace.get(resource)?.get(namespace ?? '');
  }

  private index(resource: string, key: string, object: KubeObject | undefined, namespace: string | undefined): void {
    let namespaces = this.byNamespace.get(resource);
    if (!namespaces) this.byNamespace.set(resource, (namespaces = new Map<string, Map<string, KubeObject>>()));
    const bucket = namespaces.get(namespace ?? '') ?? new Map<string, KubeObject>();
    if (object) bucket.set(key, object);
    else bucket.delete(key);
    if (bucket.size > 0) namespaces.set(namespace ?? '', bucket);
    else namespaces.delete(namespace ?? '');
  }

  /** How many objects of a kind there are (all namespaces when `namespace` is undefined). */
  count(resource: string, namespace?: string): number {
    return namespace === undefined ? this.bucket(resource).size : (this.namespaceBucket(resource, namespace)?.size ?? 0);
  }

  /**
   * The stored objects of a kind themselves, not copies, in no order — for reading only (an object changed
   * here would change the store behind its watchers): a scan of many objects without copying each.
   */
  peek(resource: string, namespace?: string): Iterable<Readonly<KubeObject>> {
    return namespace === undefined ? this.bucket(resource).values() : (this.namespaceBucket(resource, namespace)?.values() ?? []);
  }

  /**
   * Objects of a kind (all namespaces when `namespace` is undefined), sorted by namespace and name; with
   * `filter`, only those it keeps (chosen before copying: a selective list copies only what it returns).
   */
  list(resource: string, namespace?: string, filter?: (object: Readonly<KubeObject>) => boolean): KubeObject[] {
    return this.peekSorted(resource, namespace, filter).map((object) => clone(object));
  }

  /** What `list` returns, uncopied — the stored objects themselves, for reading only, as `peek`. */
  peekSorted(resource: string, namespace?: string, filter?: (object: Readonly<KubeObject>) => boolean): Readonly<KubeObject>[] {
    const all = filter ? [...this.peek(resource, namespace)].filter(filter) : [...this.peek(resource, namespace)];
    return all.sort((a, b) => `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace ?? ''}/${b.metadata.name}`));
  }

  /** Every namespaced object in a namespace, of every kind. */
  contentsOf(namespace: string): { resource: string; object: KubeObject }[] {
    const contents: { resource: string; object: KubeObject }[] = [];
    for (const [resource, bucket] of this.objects) {
      for (const object of bucket.values()) if (object.metadata.namespace === namespace) contents.push({ resource, object: clone(object) });
    }
    return contents;
  }

  /**
   * Stores `object` itself — the store keeps what it is given, so a caller hands over an object it will not
   * change again (its own copy, as every caller has) — and returns a copy.
   */
  create(resource: string, object: KubeObject): KubeObject {
    object.metadata.uid ??= randomUUID();
    object.metadata.creationTimestamp ??= new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    object.metadata.generation ??= 1;
    return this.write(resource, object, 'ADDED');
  }

  /** Replaces the stored object with `object` itself, handed over as to `create` (the caller checked resourceVersion); returns a copy. */
  replace(resource: string, object: KubeObject): KubeObject {
    return this.write(resource, object, 'MODIFIED');
  }

  remove(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const bucket = this.bucket(resource);
    const key = ObjectStore.id(namespace, name);
    const existing = bucket.get(key);
    if (!existing) return undefined;
    bucket.delete(key);
    this.index(resource, key, undefined, namespace);
    // A new object, not the stored one changed: earlier events hold that one.
    const removed: KubeObject = { ...existing, metadata: { ...existing.metadata, resourceVersion: String(++this.version) } };
    this.record({ type: 'DELETED', resourceVersion: this.version, resource, namespace, object: removed });
    return clone(removed);
  }

  /** Events after `since` (exclusive) for a kind. */
  eventsSince(since: number, resource: string): StoreEvent[] {
    return this.history.filter((event) => event.resourceVersion > since && event.resource === resource);
  }

  /** Drops the history: resumes from before now get 410 Gone. */
  compact(): void {
    this.history.length = 0;
    this.oldest = this.version;
  }

  private write(resource: string, object: KubeObject, type: WatchEventType): KubeObject {
    object.metadata.resourceVersion = String(++this.version);
    const key = ObjectStore.id(object.metadata.namespace, object.metadata.name!);
    const previous = type === 'MODIFIED' ? this.bucket(resource).get(key) : undefined;
    this.bucket(resource).set(key, object);
    this.index(resource, key, object, object.metadata.namespace);
    // The event holds the stored object itself: stored objects are never changed in place (a write stores a
    // new one, a removal records a new one), and whoever gets an event only reads it.
    this.record({ type, resourceVersion: this.version, resource, namespace: object.metadata.namespace, object, ...(previous ? { previous } : {}) });
    return clone(object);
  }

  private record(event: StoreEvent): void {
    this.history.push(event);
    if (this.history.length > MAX_HISTORY) {
      const dropped = this.history.splice(0, this.history.length - MAX_HISTORY);
      this.oldest = dropped[dropped.length - 1].resourceVersion;
    }
    this.emit('event', event);
  }
}
