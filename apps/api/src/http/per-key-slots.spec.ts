import { describe, expect, it } from 'vitest';
import { PerKeySlots } from './per-key-slots.js';

describe('PerKeySlots', () => {
  it('holds at most max per key, each key on its own, and frees a slot on release', () => {
    const slots = new PerKeySlots(2);
    expect([slots.take('a'), slots.take('a'), slots.take('a'), slots.take('b')]).toEqual([true, true, false, true]);
    expect([slots.heldBy('a'), slots.heldBy('b'), slots.heldBy('c')]).toEqual([2, 1, 0]);
    slots.release('a');
    expect(slots.take('a')).toBe(true);
  });

  it.each([
    { max: 0, takes: 1, taken: [false] },
    { max: 1, takes: 2, taken: [true, false] },
    { max: Number.POSITIVE_INFINITY, takes: 3, taken: [true, true, true] },
  ])('max $max: $taken', ({ max, takes, taken }) => {
    const slots = new PerKeySlots(max);
    expect(Array.from({ length: takes }, () => slots.take('k'))).toEqual(taken);
  });

  it('forgets a key once its last slot is released (a release without a take holds nothing)', () => {
    const slots = new PerKeySlots(1);
    slots.release('never');
    expect(slots.heldBy('never')).toBe(0);
    slots.take('k');
    slots.release('k');
    slots.release('k');
    expect(slots.take('k')).toBe(true);
  });
});
