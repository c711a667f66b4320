import { KubeApiError } from '../src/client/kube-api.error.js';
import type { HasMetadata, ListSnapshot, WatchSource } from '../src/watch/watch-source.js';

interface Connection {
  onEvent: (type: string, object: unknown) => void;
  resolve: () => void;
  reject: (error: Error) => void;
}

const gone = () => new KubeApiError({ verb: 'watch', resource: 'fake' }, { code: 410, reason: 'Expired', message: 'too old resource version' });

/**
 * An in-memory collection with a resourceVersion history, so resuming from a version replays exactly
 * what was missed; connections can be dropped, failed, or made to see a compacted history (410).
 */
export class FakeWatchSource<T extends HasMetadata> implements WatchSource<T> {
  readonly description = 'fake objects';
  private version = 100;
  private readonly objects = new Map<string, T>();
  private readonly history: { version: number; type: string; object: T }[] = [];
  private compactedThrough = 0;
  private connections: Connection[] = [];
  /** Errors the next list / watch calls fail with, in order. */
  readonly listFailures: Error[] = [];
  readonly watchFailures: Error[] = [];
  /** The resourceVersion each watch call asked for. */
  readonly watchedFrom: string[] = [];
  listCalls = 0;

  get open(): number {
    return this.connections.length;
  }

  list(): Promise<ListSnapshot<T>> {
    this.listCalls++;
    const failure = this.listFailures.shift();
    if (failure) return Promise.reject(failure);
    return Promise.resolve({ items: [...this.objects.values()].map((o) => structuredClone(o)), resourceVersion: String(this.version) });
  }

  watch(resourceVersion: string, onEvent: (type: string, object: unknown) => void, signal: AbortSignal): Promise<void> {
    this.watchedFrom.push(resourceVersion);
    const failure = this.watchFailures.shift();
    if (failure) return Promise.reject(failure);
    if (Number(resourceVersion) < this.compactedThrough) return Promise.reject(gone());
    return new Promise<void>((resolve, reject) => {
      const connection: Connection = { onEvent, resolve, reject };
      const close = (): void => {
        this.connections = this.connections.filter((c) => c !== connection);
      };
      connection.resolve = () => {
        close();
        resolve();
      };
      connection.reject = (error) => {
        close();
        reject(error);
      };
      signal.addEventListener('abort', () => connection.resolve(), { once: true });
      try {
        for (const entry of this.history) if (entry.version > Number(resourceVersion)) onEvent(entry.type, structuredClone(entry.object));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.connections.push(connection);
    });
  }

  upsert(object: T): void {
    const name = object.metadata!.name!;
    const type = this.objects.has(name) ? 'MODIFIED' : 'ADDED';
    this.record(type, object);
  }

  remove(name: string): void {
    const object = this.objects.get(name);
    if (!object) return;
    this.objects.delete(name);
    this.record('DELETED', object);
  }

  /** A bookmark: only moves the resourceVersion. */
  bookmark(): void {
    this.version++;
    this.deliver('BOOKMARK', { metadata: { resourceVersion: String(this.version) } });
  }

  /** Every open connection ends cleanly. */
  drop(): void {
    for (const connection of [...this.connections]) connection.resolve();
  }

  /** Every open connection fails. */
  fail(error: Error): void {
    for (const connection of [...this.connections]) connection.reject(error);
  }

  /** Forget the history: resuming from any version older than the current one gets 410. */
  compact(): void {
    this.compactedThrough = this.version;
  }

  /** An ERROR event carrying a Status (410 Expired, …). */
  sendError(status: { code: number; reason: string; message?: string }): void {
    this.deliver('ERROR', { kind: 'Status', apiVersion: 'v1', status: 'Failure', ...status });
  }

  private record(type: string, object: T): void {
    this.version++;
    const stamped = { ...object, metadata: { ...object.metadata, resourceVersion: String(this.version) } } as T;
    this.history.push({ version: this.version, type, object: stamped });
    if (type !== 'DELETED') this.objects.set(object.metadata!.name!, stamped);
    this.deliver(type, stamped);
  }

  private deliver(type: string, object: unknown): void {
    for (const connection of [...this.connections]) {
      try {
        connection.onEvent(type, structuredClone(object));
      } catch (error) {
        connection.reject(error as Error);
      }
    }
  }
}
