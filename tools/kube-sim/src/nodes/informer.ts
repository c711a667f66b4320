import type { KubeObject } from '../api/object.js';
import type { KubeApi } from './kube-api.js';

export interface InformerHandler {
  upsert(object: KubeObject): void;
  remove(object: KubeObject): void;
}

const keyOf = (object: KubeObject): string => `${object.metadata.namespace ?? ''}/${object.metadata.name}`;

/**
 * List-then-watch of one collection, kept in a local cache: the handler sees every object as it appears,
 * changes and leaves. A watch that ends (timeout, 410 Gone, error) is resumed by a fresh list, which also
 * reports what was deleted meanwhile.
 */
export class Informer {
  private readonly cache = new Map<string, KubeObject>();
  private readonly abort = new AbortController();
  private running?: Promise<void>;

  /** `path`: the collection, e.g. `/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-0`. */
  constructor(
    private readonly api: KubeApi,
    private readonly path: string,
    private readonly handler: InformerHandler,
    private readonly log: (message: string) => void,
  ) {}

  /** Resolves once the first list is in the cache and handed to the handler. */
  async start(): Promise<void> {
    const version = await this.relist();
    this.running = this.loop(version);
  }

  objects(): KubeObject[] {
    return [...this.cache.values()];
  }

  get(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.cache.get(`${namespace ?? ''}/${name}`);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async loop(initialVersion: string): Promise<void> {
    let version = initialVersion;
    const separator = this.path.includes('?') ? '&' : '?';
    while (!this.abort.signal.aborted) {
      let gone = false;
      let events = 0;
      await this.api.watch(
        `${this.path}${separator}watch=1&allowWatchBookmarks=true&resourceVersion=${version}`,
        (event) => {
          events++;
          if (event.type === 'ERROR') gone = true;
          else if (event.object.metadata.resourceVersion) version = event.object.metadata.resourceVersion;
          if (event.type === 'ADDED' || event.type === 'MODIFIED') this.store(event.object);
          else if (event.type === 'DELETED') this.drop(event.object);
        },
        this.abort.signal,
      );
      if (this.abort.signal.aborted) return;
      // A watch refused or cut at once (apiserver restarting): back off before the next attempt.
      if (events === 0 || gone) await this.backOff();
      if (gone) version = await this.relist().catch((error: unknown) => this.failed(error, version));
    }
  }

  /** A second, or until stopped; its listener on the stop signal goes with it. */
  private backOff(): Promise<void> {
    const { signal } = this.abort;
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, 1000);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private failed(error: unknown, version: string): string {
    this.log(`list ${this.path} failed: ${error instanceof Error ? error.message : String(error)}`);
    return version;
  }

  private async relist(): Promise<string> {
    const list = await this.api.must('GET', this.path);
    const seen = new Set<string>();
    for (const object of list.body.items ?? []) {
      seen.add(keyOf(object));
      this.store(object);
    }
    for (const [key, object] of this.cache) if (!seen.has(key)) this.drop(object);
    return list.body.metadata.resourceVersion ?? '0';
  }

  private store(object: KubeObject): void {
    this.cache.set(keyOf(object), object);
    this.handler.upsert(object);
  }

  private drop(object: KubeObject): void {
    this.cache.delete(keyOf(object));
    this.handler.remove(object);
  }
}
