import { describe, expect, it } from 'vitest';
import { ARRAY_LIMIT, objectNamed, objectsByName, objectsOf, withObject, withoutObject, type ScopeObjects } from './scope-objects.js';

interface Item {
  metadata: { name: string };
  version: number;
}
const item = (name: string, version = 1): Item => ({ metadata: { name }, version });

/** The scope after adding each item in turn. */
const scopeOf = (...items: Item[]): ScopeObjects<Item> | undefined =>
  items.reduce<ScopeObjects<Item> | undefined>((scope, next) => withObject(scope, next), undefined);

const names = (count: number): Item[] => Array.from({ length: count }, (_, i) => item(`p${i}`));

describe('ScopeObjects', () => {
  it.each([
    { held: 1, shape: 'the object itself' },
    { held: 2, shape: 'an array' },
    { held: ARRAY_LIMIT, shape: 'an array' },
    { held: ARRAY_LIMIT + 1, shape: 'a Map' },
  ])('holds $held as $shape, each found by name, in the order added', ({ held, shape }) => {
    const items = names(held);
    const scope = scopeOf(...items);
    expect(scope instanceof Map ? 'a Map' : Array.isArray(scope) ? 'an array' : 'the object itself').toBe(shape);
    for (const each of items) expect(objectNamed(scope, each.metadata.name)).toBe(each);
    expect(objectNamed(scope, 'absent')).toBeUndefined();
    expect(objectsOf(scope)).toEqual(items);
    const view = objectsByName(scope);
    expect(view.size).toBe(held);
    expect([...view.keys()]).toEqual(items.map((each) => each.metadata.name));
    expect([...view.values()]).toEqual(items);
    expect([...view]).toEqual(items.map((each) => [each.metadata.name, each]));
    expect(view.get('p0')).toBe(items[0]);
    expect(view.has('p0') && !view.has('absent')).toBe(true);
    const seen: string[] = [];
    view.forEach((_, name) => seen.push(name));
    expect(seen).toEqual(items.map((each) => each.metadata.name));
  });

  it.each([1, 2, ARRAY_LIMIT + 1])('replaces the object of the same name among %i, without adding one', (held) => {
    const scope = scopeOf(...names(held), item('p0', 2));
    expect(objectsOf(scope)).toHaveLength(held);
    expect(objectNamed(scope, 'p0')?.version).toBe(2);
  });

  it.each([1, 2, 3, ARRAY_LIMIT + 1])('removes each of %i by name and is empty (undefined) after the last', (held) => {
    let scope = scopeOf(...names(held));
    for (let i = 0; i < held; i++) {
      scope = withoutObject(scope, `p${i}`);
      expect(objectNamed(scope, `p${i}`)).toBeUndefined();
      expect(objectsOf(scope).map((each) => each.metadata.name)).toEqual(
        names(held)
          .slice(i + 1)
          .map((each) => each.metadata.name),
      );
    }
    expect(scope).toBeUndefined();
    expect(objectsByName(scope).size).toBe(0);
  });

  it('leaves the scope as it was when the name to remove is not in it', () => {
    const single = scopeOf(item('p0'));
    expect(withoutObject(single, 'absent')).toBe(single);
    expect(objectsOf(withoutObject(scopeOf(...names(3)), 'absent'))).toHaveLength(3);
    expect(withoutObject(undefined, 'p0')).toBeUndefined();
  });
});
