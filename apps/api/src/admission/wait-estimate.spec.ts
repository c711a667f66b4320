import { describe, expect, it } from 'vitest';
import { estimateWaits, predictedEnd } from './wait-estimate.js';

const S = 1000;
const NOW = 1_000_000 * S;
const NEVER = Number.POSITIVE_INFINITY;
const holder = (ageSeconds: number, expiresInSeconds = 1800) => ({ since: NOW - ageSeconds * S, expiresAt: NOW + expiresInSeconds * S });
const base = { now: NOW, lifetimes: [] as number[] };

describe('predictedEnd', () => {
  const lifetimes = [60, 60, 120, 600].map((seconds) => seconds * S);
  it.each([
    ['young: the median lifetime', 10, 1800, 60 - 10],
    ['older than most: the median of those that lived longer', 90, 1800, 120 - 90],
    ['older than every lab seen: its expiry', 900, 300, 300],
    ['never after its expiry', 10, 20, 20],
    ['already past its expiry: now', 10, -5, 0],
  ])('%s', (_case, age, expiresIn, remaining) => {
    expect((predictedEnd(holder(age, expiresIn), NOW, lifetimes) - NOW) / S).toBe(remaining);
  });

  it('without history, the expiry (an upper bound); never, for a lab that never expires', () => {
    expect(predictedEnd(holder(10, 1800), NOW, [])).toBe(NOW + 1800 * S);
    expect(predictedEnd({ since: NOW, expiresAt: NEVER }, NOW, [])).toBe(NEVER);
  });
});

describe('estimateWaits', () => {
  it('nobody waits without a cap', () => {
    expect(estimateWaits({ ...base, cap: 0, holders: [holder(1)], positions: 3 })).toEqual([0, 0, 0]);
  });

  it('free capacity is no wait; then each slot as its lab ends, in order', () => {
    const holders = [holder(50), holder(10), holder(30)];
    expect(estimateWaits({ ...base, cap: 4, holders, lifetimes: [60 * S, 60 * S], positions: 4 })).toEqual([0, 10, 30, 50]);
  });

  it('past the running labs, a slot is reused after the median lifetime', () => {
    const holders = [holder(50), holder(20)];
    // Slots free at +10 and +40; positions 3 and 4 take them again after a 60 s lifetime.
    expect(estimateWaits({ ...base, cap: 2, holders, lifetimes: [60 * S], positions: 5 })).toEqual([10, 40, 70, 100, 130]);
  });

  it('says nothing beyond free capacity before any lab has ended (expiry alone is no estimate)', () => {
    expect(estimateWaits({ ...base, cap: 2, holders: [holder(5, 600)], positions: 3 })).toEqual([0, undefined, undefined]);
  });

  it("caps a prediction with the lab's expiry once there is history", () => {
    expect(estimateWaits({ ...base, cap: 1, holders: [holder(5, 20)], lifetimes: [600 * S], positions: 2 })).toEqual([20, 620]);
  });

  it('cannot say when only labs that never expire hold the capacity', () => {
    expect(estimateWaits({ ...base, cap: 1, holders: [{ since: NOW, expiresAt: NEVER }], lifetimes: [60 * S], positions: 2 })).toEqual([60, 120]);
    expect(estimateWaits({ ...base, cap: 1, holders: [{ since: NOW - 120 * S, expiresAt: NEVER }], lifetimes: [60 * S], positions: 2 })).toEqual([
      undefined,
      undefined,
    ]);
  });
});
