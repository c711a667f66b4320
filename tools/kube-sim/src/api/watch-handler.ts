import type { ServerResponse } from 'node:http';
import type { KubeObject } from './object.js';
import type { ResourceRequest } from './request.js';
import type { ResourceHandler } from './resource-handler.js';
import { apiVersionOf } from './resources.js';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from './selectors.js';
import { gone } from './status.js';
import { resourceKey, type ObjectStore, type StoreEvent } from './store.js';

const BOOKMARK_INTERVAL_MS = 5000;

/**
 * Streams watch events as newline-delimited JSON over a chunked response. Without a resourceVersion
 * (or "0") it first sends the current objects as ADDED; with one, it replays history after it, or sends
 * a 410 Expired ERROR event when that version was compacted away.
 */
export class WatchHandler {
  private readonly open = new Set<ServerResponse>();

  constructor(
    private readonly store: ObjectStore,
    private readonly resources: ResourceHandler,
  ) {}

  get openWatches(): number {
    return this.open.size;
  }

  /** Ends every open watch connection (fault injection: clients must resume). */
  dropAll(): void {
    for (const response of this.open) response.destroy();
    this.open.clear();
  }

  /** `present` turns objects into what the client asked for (a Table row for kubectl). */
  serve(request: ResourceRequest, response: ServerResponse, present: (object: KubeObject) => unknown = (object) => object): void {
    const labels = parseLabelSelector(request.query.get('labelSelector'));
    const fields = parseFieldSelector(request.query.get('fieldSelector'));
    const key = resourceKey(request.type);
    const namespace = request.type.namespaced ? request.namespace : undefined;
    const matches = (object: KubeObject): boolean =>
      (namespace === undefined || object.metadata.namespace === namespace) && matchesLabels(labels, object.metadata.labels) && matchesFields(fields, object);
    response.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache' });
    response.flushHeaders();
    // Events of one turn of the event loop go out in one write (a burst of creates is hundreds of events a second).
    let corked = false;
    const send = (type: string, object: unknown): void => {
      if (!corked) {
        corked = true;
        response.cork();
        setImmediate(() => {
          corked = false;
          response.uncork();
        });
      }
      response.write(`${JSON.stringify({ type, object: ['ADDED', 'MODIFIED', 'DELETED'].includes(type) ? present(object as KubeObject) : object })}\n`);
    };
    const since = request.query.get('resourceVersion');
    if (!since || since === '0') {
      for (const object of this.store.list(key, namespace)) if (matches(object)) send('ADDED', this.resources.present(request.type, object));
    } else {
      const version = Number(since);
      if (!Number.isFinite(version) || version < this.store.oldestVersion) {
        send('ERROR', gone(`too old resource version: ${since} (${this.store.oldestVersion})`).toStatus());
        response.end();
        return;
      }
      for (const event of this.store.eventsSince(version, key)) {
        const type = filteredType(event, matches);
        if (type) send(type, this.resources.present(request.type, event.object));
      }
    }
    const onEvent = (event: StoreEvent): void => {
      const type = event.resource === key ? filteredType(event, matches) : undefined;
      if (type) send(type, this.resources.present(request.type, event.object));
    };
    this.store.on('event', onEvent);
    this.open.add(response);
    const bookmarks =
      request.query.get('allowWatchBookmarks') === 'true'
        ? setInterval(
            () =>
              send('BOOKMARK', {
                kind: request.type.kind,
                apiVersion: apiVersionOf(request.type),
                metadata: { resourceVersion: String(this.store.currentVersion) },
              }),
            BOOKMARK_INTERVAL_MS,
          )
        : undefined;
    const timeoutSeconds = Number(request.query.get('timeoutSeconds') ?? 0);
    const timeout = timeoutSeconds > 0 ? setTimeout(() => response.end(), timeoutSeconds * 1000) : undefined;
    const close = (): void => {
      this.store.off('event', onEvent);
      this.open.delete(response);
      clearInterval(bookmarks);
      clearTimeout(timeout);
    };
    response.on('close', close);
    response.on('error', close);
  }
}

/**
 * The event a filtered watch sees, as on a real server: an object that starts matching the selector is
 * ADDED, one that stops matching is DELETED (with its new state), a change within it is MODIFIED.
 */
function filteredType(event: StoreEvent, matches: (object: KubeObject) => boolean): string | undefined {
  const now = matches(event.object);
  if (event.type !== 'MODIFIED' || !event.previous) return now ? event.type : undefined;
  const before = matches(event.previous);
  if (before && now) return 'MODIFIED';
  if (now) return 'ADDED';
  return before ? 'DELETED' : undefined;
}
