/** The parts of every Kubernetes object kube-sim looks at. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * A deep copy of a JSON value — what every object kube-sim holds is: parsed from a JSON or YAML body, or
 * built by a controller from strings, numbers, booleans, arrays and plain objects. About 8× faster than
 * `structuredClone`, which serialises through V8's value serialiser (a tenth of kube-sim's time in a burst).
 * A `__proto__` key (JSON.parse makes it an own property) stays an own property, not the copy's prototype.
 */
export function clone<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => clone(item)) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = clone((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}
