import type { KubeObject } from './object.js';

export interface DeleteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
}

/**
 * Per-kind cluster behaviour plugged into the generic handlers: defaults and validation on create,
 * reactions after writes, and what a delete really does (namespaces terminate, jobs cascade).
 */
export interface KindBehaviour {
  /** Fill defaults / validate before storing (throw ApiError to refuse). */
  prepareCreate?(object: KubeObject): void;
  /** After the object was stored. */
  created?(object: KubeObject): void;
  /** Keep what clients cannot change (e.g. a service's clusterIP) before an update is stored. */
  prepareUpdate?(previous: KubeObject, next: KubeObject): void;
  updated?(object: KubeObject): void;
  /** 'defer' keeps the object (e.g. a namespace goes Terminating); the behaviour removes it later. */
  deleting?(object: KubeObject, options: DeleteOptions): 'remove' | 'defer';
  /** After the object left the store. */
  deleted?(object: KubeObject, options: DeleteOptions): void;
}
