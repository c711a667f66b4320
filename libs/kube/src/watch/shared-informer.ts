import { silentLogger, type KubeLogger } from '../client/kube-logger.js';
import { ResilientWatch } from './resilient-watch.js';
import type { HasMetadata, WatchChangeType, WatchSource } from './watch-source.js';
import { objectNamed, objectsByName, objectsOf, withObject, withoutObject, type ScopeObjects } from './scope-objects.js';
import { WaitTimeoutError, type WaitVerdict } from './watch-until.js';

export interface InformerWaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** For the timeout message: "pods Running in ns". */
  what: string;
}

/** A change the cache applied; `scope` is the object's namespace, or its name for cluster-scoped kinds. */
export type InformerListener<T> = (type: WatchChangeType, object: T, scope: string) => void;

interface Subscription {
  check(): void;
}

/**
 * Whether a re-listed object may differ from the one cached: its resource version moved, or the cache
 * keeps no resource version (`keep` dropped it to save memory) and so cannot tell — then it is reported
 * as modified, as client-go's informers report every object of a re-list.
 */
function changedSince(cached: HasMetadata, listed: HasMetadata): boolean {
  const version = listed.metadata?.resourceVersion;
  return version === undefined || cached.metadata?.resourceVersion !== version;
}

/**
 * One label-selected cache of a kind, filled by one `ResilientWatch` (list once, then watch; resumed
 * after a dropped stream, re-listed on 410 Gone) and shared by every wait of the process. Objects are
 * grouped by scope — their namespace, or their own name for cluster-scoped kinds — so a wait looks at
 * (and is re-evaluated for) its own scope only; a scope is held as compactly as its size allows
 * (`ScopeObjects`). A wait is a subscription: it costs no Kubernetes call.
 */
export class SharedInformer<T extends HasMetadata> {
  private readonly scopes = new Map<string, ScopeObjects<T>>();
  private readonly waiters = new Map<string, Set<Subscription>>();
  private readonly listeners = new Set<InformerListener<T>>();
  private readonly logger: KubeLogger;
  private readonly watch: ResilientWatch<T>;
  private synced = false;
  private failure?: Error;
  private running?: Promise<void>;

  /** `keep`: what of each object the cache holds (the whole object by default; see `metadataAndStatus`). */
  constructor(
    readonly source: WatchSource<T>,
    private readonly options: { clusterScoped: boolean; logger?: KubeLogger; keep?: (object: T) => T },
  ) {
    this.logger = options.logger ?? silentLogger;
    const keep = options.keep ?? ((object: T) => object);
    this.watch = new ResilientWatch<T>(
      source,
      {
        onSync: (items) => this.replace(items.map(keep)),
        onChange: (type, item) => this.apply(type, keep(item)),
      },
      { logger: this.logger },
    );
  }

  /** Re-lists after 410 so far (tests, logs). */
  get relists(): number {
    return this.watch.relists;
  }

  /** True once the first list has been applied. */
  get hasSynced(): boolean {
    return this.synced;
  }

  /** Starts the watch (once); it runs until `signal` aborts. A fatal watch error fails every wait, now and later. */
  start(signal: AbortSignal): void {
    this.running ??= this.watch.run(signal).catch((error: unknown) => {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.logger.error({ watch: this.source.description, error: this.failure.message }, 'informer stopped for good');
      for (const set of this.waiters.values()) for (const waiter of set) waiter.check();
    });
  }

  /** Resolves when the watch has stopped (after the start signal aborted). */
  async stopped(): Promise<void> {
    await this.running;
  }

  /** The cached objects of one scope, by name (empty until synced). */
  objectsIn(scope: string): ReadonlyMap<string, T> {
    return objectsByName(this.scopes.get(scope));
  }

  /** Every cached object. */
  all(): T[] {
    return [...this.scopes.values()].flatMap((objects) => objectsOf(objects));
  }

  get(scope: string, name: string): T | undefined {
    return objectNamed(this.scopes.get(scope), name);
  }

  /** Re-evaluates the waits of one scope (something they depend on changed elsewhere). */
  recheck(scope: string): void {
    for (const waiter of [...(this.waiters.get(scope) ?? [])]) waiter.check();
  }

  /** Every change applied from now on (re-lists report what they added, changed and removed). */
  onChange(listener: InformerListener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves once `evaluate` (given the scope's objects, after the first sync) says done; rejects when
   * it says failed, when `signal` aborts, or when the timeout passes (the message says what was still
   * missing). Re-evaluated on every change in the scope.
   */
  waitFor<R>(scope: string, evaluate: (objects: ReadonlyMap<string, T>) => WaitVerdict<R>, options: InformerWaitOptions): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let lastProgress: string | undefined;
      const finish = (verdict: WaitVerdict<R>): void => {
        if (verdict.state === 'waiting') return;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        const set = this.waiters.get(scope);
        set?.delete(subscription);
        if (set?.size === 0) this.waiters.delete(scope);
        if (verdict.state === 'done') resolve(verdict.value);
        else reject(verdict.error);
      };
      const subscription: Subscription = {
        check: () => {
          if (this.failure) return finish({ state: 'failed', error: this.failure });
          if (!this.synced) return;
          let verdict: WaitVerdict<R>;
          try {
            verdict = evaluate(this.objectsIn(scope));
          } catch (error) {
            verdict = { state: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
          }
          if (verdict.state === 'waiting') lastProgress = verdict.progress;
          finish(verdict);
        },
      };
      const onAbort = (): void =>
        finish({ state: 'failed', error: new Error(`cancelled while waiting for ${options.what}`, { cause: options.signal?.reason }) });
      const timer = setTimeout(
        () =>
          finish({
            state: 'failed',
            error: new WaitTimeoutError(
              `timed out after ${Math.round(options.timeoutMs / 1000)} s waiting for ${options.what}${lastProgress ? ` (${lastProgress})` : ''}`,
            ),
          }),
        options.timeoutMs,
      );
      const set = this.waiters.get(scope) ?? new Set();
      this.waiters.set(scope, set);
      set.add(subscription);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.signal?.aborted) onAbort();
      else subscription.check();
    });
  }

  private scopeOf(item: T): string {
    return (this.options.clusterScoped ? item.metadata?.name : item.metadata?.namespace) ?? '';
  }

  private replace(items: T[]): void {
    const before = this.scopes;
    const after = new Map<string, ScopeObjects<T>>();
    for (const item of items) {
      const scope = this.scopeOf(item);
      after.set(scope, withObject(after.get(scope), item));
    }
    const changes: [WatchChangeType, T][] = [];
    for (const [scope, objects] of before) {
      for (const item of objectsOf(objects)) if (!objectNamed(after.get(scope), item.metadata?.name ?? '')) changes.push(['DELETED', item]);
    }
    for (const [scope, objects] of after) {
      for (const item of objectsOf(objects)) {
        const old = objectNamed(before.get(scope), item.metadata?.name ?? '');
        if (!old) changes.push(['ADDED', item]);
        else if (changedSince(old, item)) changes.push(['MODIFIED', item]);
      }
    }
    this.scopes.clear();
    for (const [scope, objects] of after) this.scopes.set(scope, objects);
    const first = !this.synced;
    this.synced = true;
    if (!first) for (const [type, item] of changes) this.notify(type, item);
    for (const set of [...this.waiters.values()]) for (const waiter of [...set]) waiter.check();
  }

  private apply(type: WatchChangeType, item: T): void {
    const scope = this.scopeOf(item);
    const name = item.metadata?.name ?? '';
    const objects = type === 'DELETED' ? withoutObject(this.scopes.get(scope), name) : withObject(this.scopes.get(scope), item);
    if (objects === undefined) this.scopes.delete(scope);
    else this.scopes.set(scope, objects);
    this.notify(type, item);
    this.recheck(scope);
  }

  private notify(type: WatchChangeType, item: T): void {
    for (const listener of this.listeners) {
      try {
        listener(type, item, this.scopeOf(item));
      } catch (error) {
        this.logger.warn({ watch: this.source.description, error: String(error) }, 'informer listener failed');
      }
    }
  }
}
