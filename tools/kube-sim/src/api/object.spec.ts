import { describe, expect, it } from 'vitest';
import { clone } from './object.js';

describe('clone (a deep copy of a JSON value)', () => {
  it('copies every level: nothing in the copy is shared with the original', () => {
    const original = {
      metadata: { name: 'a', labels: { x: '1' } },
      spec: { containers: [{ name: 'c', ports: [{ containerPort: 22 }] }] },
      status: { ready: true, count: 0, note: null },
    };
    const copy = clone(original);
    expect(copy).toEqual(original);
    copy.metadata.labels.x = '2';
    copy.spec.containers[0].ports[0].containerPort = 23;
    copy.spec.containers.push({ name: 'd', ports: [] });
    expect(original.metadata.labels.x).toBe('1');
    expect(original.spec.containers).toEqual([{ name: 'c', ports: [{ containerPort: 22 }] }]);
  });

  it.each([
    ['a string', 'x'],
    ['a number', 0],
    ['false', false],
    ['null', null],
    ['undefined', undefined],
  ])('returns %s as it is', (_, value) => {
    expect(clone(value)).toBe(value);
  });

  it('keeps a key left undefined, as structuredClone does', () => {
    expect(Object.keys(clone({ a: undefined, b: 1 }))).toEqual(['a', 'b']);
  });

  it('keeps a "__proto__" key of a parsed body an own property, not the copy\'s prototype', () => {
    const parsed = JSON.parse('{"metadata":{"__proto__":{"polluted":true},"name":"x"}}') as { metadata: Record<string, unknown> };
    const copy = clone(parsed);
    expect(Object.getPrototypeOf(copy.metadata)).toBe(Object.prototype);
    expect((copy.metadata as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(copy.metadata)).toEqual(['__proto__', 'name']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
  });
});
