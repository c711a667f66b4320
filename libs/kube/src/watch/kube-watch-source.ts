import { createInterface } from 'node:readline';
import { toKubeApiError } from '../client/kube-api.error.js';
import { query, type KubeHttp } from '../client/kube-http.js';
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

/** A `WatchSource` over the real API: paged lists through the client, a watch as one streamed GET of JSON lines. */
export class KubeWatchSource<T extends HasMetadata> implements WatchSource<T> {
  readonly description: string;

  constructor(
    private readonly http: KubeHttp,
    private readonly target: WatchTarget<T>,
  ) {
    const selectors = [target.query.labelSelector, target.query.fieldSelector].filter(Boolean).join(', ');
    this.description = `${target.resource}${target.namespace ? ` in ${target.namespace}` : ''}${selectors ? ` (${selectors})` : ''}`;
  }

  list(signal: AbortSignal): Promise<ListSnapshot<T>> {
    return this.target.listAll(signal);
  }

  async watch(resourceVersion: string, onEvent: (type: string, object: unknown) => void, signal: AbortSignal): Promise<void> {
    const apiTarget = { verb: 'watch' as const, resource: this.target.resource, ...(this.target.namespace ? { namespace: this.target.namespace } : {}) };
    const { labelSelector, fieldSelector } = this.target.query;
    const path = `${this.target.collectionPath}${query({ watch: true, resourceVersion, allowWatchBookmarks: true, labelSelector, fieldSelector })}`;
    const response = await this.http.stream({ method: 'GET', path, signal }).catch((error: unknown) => {
      if (signal.aborted) return undefined;
      throw toKubeApiError(error, apiTarget);
    });
    if (!response) return;
    if (signal.aborted) {
      response.destroy();
      return;
    }
    // readline ends its lines on the stream's 'end' only: a stream cut (abort, lost connection) closes them here.
    const lines = createInterface({ input: response, crlfDelay: Infinity });
    const stop = (): void => lines.close();
    signal.addEventListener('abort', stop, { once: true });
    response.once('close', stop);
    // One event per line. An event the consumer rejects (a handler error, an ERROR event, a line that is not an event) ends the connection with that very error.
    let rejected: { error: unknown } | undefined;
    try {
      for await (const line of lines) {
        if (!line.trim()) continue;
        try {
          const event = parseEvent(line);
          onEvent(event.type, event.object);
        } catch (error) {
          rejected = { error };
          break;
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      throw toKubeApiError(error, apiTarget);
    } finally {
      signal.removeEventListener('abort', stop);
      response.destroy();
    }
    if (rejected) throw rejected.error;
  }
}

function parseEvent(line: string): { type: string; object: unknown } {
  const event = JSON.parse(line) as { type?: unknown; object?: unknown };
  if (typeof event.type !== 'string') throw new SyntaxError(`a watch event without a type: ${line.slice(0, 200)}`);
  return { type: event.type, object: event.object };
}
