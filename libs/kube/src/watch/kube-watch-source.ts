import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { toKubeApiError } from '../client/kube-api.error.js';
import type { ListQuery } from '../client/kube-resources.js';
import type { HasMetadata, ListSnapshot, WatchSource } from './watch-source.js';

export interface WatchTarget<T> {
  resource: string;
  namespace?: string;
  query: ListQuery;
  collectionPath: string;
  /** One consistent list of every page. */
  listAll(signal: AbortSignal): Promise<ListSnapshot<T>>;
}

/** A `WatchSource` over the real API: paged lists through the client, watches through client-node's `Watch`. */
export class KubeWatchSource<T extends HasMetadata> implements WatchSource<T> {
  readonly description: string;
  private readonly watcher: Watch;

  constructor(
    kubeConfig: KubeConfig,
    private readonly target: WatchTarget<T>,
  ) {
    this.watcher = new Watch(kubeConfig);
    const selectors = [target.query.labelSelector, target.query.fieldSelector].filter(Boolean).join(', ');
    this.description = `${target.resource}${target.namespace ? ` in ${target.namespace}` : ''}${selectors ? ` (${selectors})` : ''}`;
  }

  list(signal: AbortSignal): Promise<ListSnapshot<T>> {
    return this.target.listAll(signal);
  }

  async watch(resourceVersion: string, onEvent: (type: string, object: unknown) => void, signal: AbortSignal): Promise<void> {
    const apiTarget = { verb: 'watch' as const, resource: this.target.resource, ...(this.target.namespace ? { namespace: this.target.namespace } : {}) };
    const query = this.target.query;
    const params = {
      resourceVersion,
      allowWatchBookmarks: true,
      ...(query.labelSelector ? { labelSelector: query.labelSelector } : {}),
      ...(query.fieldSelector ? { fieldSelector: query.fieldSelector } : {}),
    };
    const connection = new AbortController();
    let finish: (error?: Error) => void = () => undefined;
    const ended = new Promise<void>((resolve, reject) => {
      finish = (error?: Error) => (error ? reject(error) : resolve());
    });
    // An event the consumer rejects (a handler error, an ERROR event) ends this connection with that very error.
    const deliver = (type: string, object: unknown): void => {
      try {
        onEvent(type, object);
      } catch (error) {
        connection.abort();
        finish(error as Error);
      }
    };
    const stop = (): void => {
      connection.abort();
      finish();
    };
    signal.addEventListener('abort', stop, { once: true });
    try {
      const started = await this.watcher
        .watch(this.target.collectionPath, params, deliver, (error: unknown) => finish(error && !isAbort(error) ? toKubeApiError(error, apiTarget) : undefined))
        .catch((error: unknown) => {
          throw toKubeApiError(error, apiTarget);
        });
      connection.signal.addEventListener('abort', () => started.abort(), { once: true });
      if (signal.aborted) started.abort();
      await ended;
    } finally {
      signal.removeEventListener('abort', stop);
      connection.abort();
    }
  }
}

const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';
