import type { HasMetadata } from './watch-source.js';

/**
 * One scope's cached objects, held in as little memory as their number allows: a scope of one object
 * (a namespace, its ServiceAccount) is the object itself, a few (a lesson's pods or jobs) an array,
 * more than `ARRAY_LIMIT` a Map. A Map per scope cost ~200–300 bytes before its first object, which
 * 10,000 lessons' four scopes each made ~10 MiB (docs/performance.md, "The scheduler's memory per
 * lesson held"); an array of a few is a fifth of that, and looking a name up in it costs less than
 * hashing it.
 */
export type ScopeObjects<T> = T | T[] | Map<string, T>;

/** Above this many objects a scope is a Map: a lookup in an array grows with its length. */
export const ARRAY_LIMIT = 16;

const nameOf = (object: HasMetadata): string => object.metadata?.name ?? '';

const EMPTY: ReadonlyMap<string, never> = new Map<string, never>();

/**
 * The scope with `object` added, or in place of the one of its name (in place for an array or a Map).
 * An added object makes a new array of exactly its length: an array pushed to keeps room for 16 more,
 * twice the memory of a lesson's six pods.
 */
export function withObject<T extends HasMetadata>(scope: ScopeObjects<T> | undefined, object: T): ScopeObjects<T> {
  const name = nameOf(object);
  if (scope === undefined) return object;
  if (scope instanceof Map) return scope.set(name, object);
  if (!Array.isArray(scope)) return nameOf(scope) === name ? object : [scope, object];
  const at = scope.findIndex((held) => nameOf(held) === name);
  if (at >= 0) {
    scope[at] = object;
    return scope;
  }
  return scope.length < ARRAY_LIMIT ? scope.concat([object]) : new Map([...scope, object].map((held) => [nameOf(held), held]));
}

/** The scope without the object named `name`; undefined once it holds none. */
export function withoutObject<T extends HasMetadata>(scope: ScopeObjects<T> | undefined, name: string): ScopeObjects<T> | undefined {
  if (scope === undefined) return undefined;
  if (scope instanceof Map) {
    scope.delete(name);
    return scope.size === 0 ? undefined : scope;
  }
  if (!Array.isArray(scope)) return nameOf(scope) === name ? undefined : scope;
  const kept = scope.filter((held) => nameOf(held) !== name);
  return kept.length === 0 ? undefined : kept.length === 1 ? kept[0] : kept;
}

/** The object named `name` in the scope. */
export function objectNamed<T extends HasMetadata>(scope: ScopeObjects<T> | undefined, name: string): T | undefined {
  if (scope === undefined) return undefined;
  if (scope instanceof Map) return scope.get(name);
  if (!Array.isArray(scope)) return nameOf(scope) === name ? scope : undefined;
  return scope.find((held) => nameOf(held) === name);
}

/** The scope's objects. */
export function objectsOf<T extends HasMetadata>(scope: ScopeObjects<T> | undefined): readonly T[] {
  if (scope === undefined) return [];
  if (scope instanceof Map) return [...scope.values()];
  return Array.isArray(scope) ? scope : [scope];
}

/** The scope's objects by name, as waits read them: the Map itself, or a view made for the read (not kept). */
export function objectsByName<T extends HasMetadata>(scope: ScopeObjects<T> | undefined): ReadonlyMap<string, T> {
  if (scope === undefined) return EMPTY;
  if (scope instanceof Map) return scope;
  return new ScopeView(Array.isArray(scope) ? scope : [scope]);
}

/** A read-only Map over a short array of objects, by their names. */
class ScopeView<T extends HasMetadata> implements ReadonlyMap<string, T> {
  constructor(private readonly objects: readonly T[]) {}

  get size(): number {
    return this.objects.length;
  }

  get(name: string): T | undefined {
    return this.objects.find((object) => nameOf(object) === name);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  forEach(callback: (value: T, key: string, map: ReadonlyMap<string, T>) => void, thisArg?: unknown): void {
    for (const object of this.objects) callback.call(thisArg, object, nameOf(object), this);
  }

  *entries(): MapIterator<[string, T]> {
    for (const object of this.objects) yield [nameOf(object), object];
  }

  *keys(): MapIterator<string> {
    for (const object of this.objects) yield nameOf(object);
  }

  *values(): MapIterator<T> {
    yield* this.objects;
  }

  [Symbol.iterator](): MapIterator<[string, T]> {
    return this.entries();
  }
}
