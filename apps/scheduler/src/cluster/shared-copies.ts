/** Entries each table holds before it starts over: a bound on the tables; a lookup that misses costs one copy more. */
const LIMIT = 50_000;

function freeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) freeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * One copy of each string, and of each read-only part (a label set, a status), many cached objects have
 * alike: a string parsed from JSON is a new string every time, and 10,000 lessons' pods have a few
 * statuses between them. Parts are frozen: the cached objects are read, never written to.
 */
export class SharedCopies {
  private readonly strings = new Map<string, string>();
  private readonly parts = new Map<string, object>();

  constructor(private readonly limit = LIMIT) {}

  string(value: string | undefined): string | undefined {
    if (value === undefined) return undefined;
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    if (this.strings.size >= this.limit) this.strings.clear();
    this.strings.set(value, value);
    return value;
  }

  /** The part, or the equal one (same fields, in the same order, same values) held already. */
  part<T extends object>(value: T): T {
    const key = JSON.stringify(value);
    const known = this.parts.get(key);
    if (known) return known as T;
    if (this.parts.size >= this.limit) this.parts.clear();
    this.parts.set(key, freeze(value));
    return value;
  }
}
