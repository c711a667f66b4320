import type { V1ObjectMeta } from '@kubernetes/client-node';

/** Anything with Kubernetes metadata (every watched kind). */
export interface HasMetadata {
  metadata?: V1ObjectMeta;
}

export type WatchChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ListSnapshot<T> {
  items: T[];
  /** The list's resourceVersion: the watch starts here. */
  resourceVersion: string;
}

/**
 * One watchable collection (kind + namespace + selectors). `KubeClient.watchSource` makes them over
 * the real API; tests use fakes.
 */
export interface WatchSource<T extends HasMetadata> {
  /** For logs: `pods in ns (labelSelector)`. */
  readonly description: string;
  /** A full, consistent list (all pages). */
  list(signal: AbortSignal): Promise<ListSnapshot<T>>;
  /**
   * Streams events after `resourceVersion` (`type` is ADDED/MODIFIED/DELETED/BOOKMARK/ERROR; ERROR
   * carries a `Status`). Resolves when the connection ends cleanly (server timeout, idle cut),
   * rejects with a `KubeApiError` (code 410 when the version is too old) when it fails.
   */
  watch(resourceVersion: string, onEvent: (type: string, object: unknown) => void, signal: AbortSignal): Promise<void>;
}
