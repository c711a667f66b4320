import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { HasMetadata } from './watch-source.js';

/** The metadata a cache keeps: identity, labels, lifecycle times. */
const KEPT_METADATA = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'labels',
  'creationTimestamp',
  'deletionTimestamp',
] as const satisfies readonly (keyof V1ObjectMeta)[];

/**
 * What a shared cache needs of an object for waits that read its state: `apiVersion`, `kind`, the
 * metadata above and the `status` — not the spec, annotations or managed fields, which are most of a
 * pod's size (a scheduler holding 1,000 live lessons caches 3,000 pods and 3,000 jobs).
 */
export function metadataAndStatus<T extends HasMetadata>(object: T): T {
  const { apiVersion, kind, metadata = {}, status } = object as T & { apiVersion?: string; kind?: string; status?: unknown };
  const kept: Partial<V1ObjectMeta> = {};
  for (const key of KEPT_METADATA) if (metadata[key] !== undefined) Object.assign(kept, { [key]: metadata[key] });
  return { ...(apiVersion ? { apiVersion } : {}), ...(kind ? { kind } : {}), metadata: kept, ...(status !== undefined ? { status } : {}) } as T;
}
