import type { SharedInformer } from '../watch/shared-informer.js';
import type { HasMetadata } from '../watch/watch-source.js';
import { watchUntil, type WaitVerdict } from '../watch/watch-until.js';
import type { KubeClient } from '../client/kube-client.js';
import { KIND_PATHS, type KindTypes, type KubeKind, type ListQuery } from '../client/kube-resources.js';

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A wait answered from a shared cache (no Kubernetes call) instead of a list + watch of its own. */
export interface CachedWaitOptions<T extends HasMetadata> extends WaitOptions {
  informer?: SharedInformer<T>;
  /** Checked before every evaluation: an error fails the wait at once (e.g. its namespace was deleted). */
  guard?: () => Error | undefined;
}

/** A pod or job that failed for good; `logs` holds the last lines of the containers concerned. */
export class WorkloadFailedError extends Error {
  override readonly name = 'WorkloadFailedError';
  constructor(
    message: string,
    readonly logs: string,
  ) {
    super(logs ? `${message}\n${logs}` : message);
  }
}

/** What one wait looks at: objects of `kind` in `scope` (the namespace, or the name of a cluster-scoped object). */
export interface WaitTarget<K extends KubeKind> {
  kind: K;
  scope: string;
  /** The list + watch's selector when no informer is given. */
  query: ListQuery;
  /** Named in the timeout's message. */
  what: string;
}

/** A wait on the informer when one is given, else a list + watch of its own (resumed, re-listed on 410). */
export function waitOn<K extends KubeKind, R>(
  kube: KubeClient,
  target: WaitTarget<K>,
  evaluate: (objects: ReadonlyMap<string, KindTypes[K]>) => WaitVerdict<R>,
  options: CachedWaitOptions<KindTypes[K]>,
): Promise<R> {
  const { informer, guard, ...wait } = options;
  const { kind, scope, query, what } = target;
  const guarded = (objects: ReadonlyMap<string, KindTypes[K]>): WaitVerdict<R> => {
    const error = guard?.();
    return error ? { state: 'failed', error } : evaluate(objects);
  };
  if (informer) return informer.waitFor(scope, guarded, { ...wait, what });
  const namespace = KIND_PATHS[kind].namespaced ? scope : '';
  return watchUntil(kube.watchSource(kind, namespace, query), guarded, { ...wait, logger: kube.logger, what });
}
