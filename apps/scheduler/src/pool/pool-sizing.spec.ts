import { describe, expect, it } from 'vitest';
import { apportion, sizePools, type AdaptivePoolDemand, type FixedPoolDemand, type PoolDemandFacts } from './pool-sizing.js';

const WINDOW = 600;
const fixed = (lessonSlug: string, size: number): FixedPoolDemand => ({ lessonSlug, kind: 'fixed', size });
/** An adaptive pool; `requests` in the 600 s window, 30 s to build a member unless given. */
const adaptive = (lessonSlug: string, min: number, max: number, requests: number, refillSeconds = 30): AdaptivePoolDemand => ({
  lessonSlug,
  kind: 'adaptive',
  min,
  max,
  requests,
  refillSeconds,
});

describe('sizePools', () => {
  it.each<[string, PoolDemandFacts[], number, Record<string, number>]>([
    ['no pools: nothing', [], 10, {}],
    ['a fixed pool keeps its size', [fixed('a', 3)], 10, { a: 3 }],
    ['a fixed pool keeps its size even beyond the budget (an operator’s explicit number)', [fixed('a', 12)], 10, { a: 12 }],
    ['resized to 0: drained', [fixed('a', 0)], 10, { a: 0 }],
    ['adaptive with no demand: its min', [adaptive('a', 2, 8, 0)], 10, { a: 2 }],
    ['adaptive with no demand and min 0: empty', [adaptive('a', 0, 8, 0)], 10, { a: 0 }],
    ['60 requests in 10 min, 30 s to refill: 0.1/s × 30 s = 3 (no float overshoot)', [adaptive('a', 0, 8, 60)], 10, { a: 3 }],
    ['61 requests: 3.05 rounds up to 4', [adaptive('a', 0, 8, 61)], 10, { a: 4 }],
    ['one request: 1 member', [adaptive('a', 0, 8, 1)], 10, { a: 1 }],
    ['a slower build needs more members: 60 requests × 120 s refill', [adaptive('a', 0, 20, 60, 120)], 100, { a: 12 }],
    ['need above max: max', [adaptive('a', 0, 5, 600)], 100, { a: 5 }],
    ['need below min: min', [adaptive('a', 4, 8, 20)], 100, { a: 4 }],
    ['unlimited budget: every need', [adaptive('a', 0, 50, 600), adaptive('b', 0, 50, 1200)], Number.POSITIVE_INFINITY, { a: 30, b: 50 }],
    ['needs that fit the budget exactly: every need', [adaptive('a', 0, 8, 60), adaptive('b', 0, 8, 40)], 5, { a: 3, b: 2 }],
    [
      'budget smaller than the needs: mins first, the rest in proportion to need beyond min (ties to the first)',
      [adaptive('a', 1, 8, 120), adaptive('b', 1, 8, 40)],
      5,
      { a: 4, b: 1 },
    ],
    ['budget split 3:1 in proportion to need', [adaptive('a', 0, 20, 180), adaptive('b', 0, 20, 60)], 8, { a: 6, b: 2 }],
    ['budget smaller than the sum of mins: the mins shared in proportion', [adaptive('a', 3, 8, 0), adaptive('b', 1, 8, 0)], 2, { a: 2, b: 0 }],
    ['budget 0 (all taken): adaptive pools get nothing, not even their min', [adaptive('a', 2, 8, 60)], 0, { a: 0 }],
    ['fixed pools take their part of the budget first', [fixed('f', 4), adaptive('a', 0, 8, 60)], 5, { f: 4, a: 1 }],
    ['fixed pools beyond the budget leave adaptive ones nothing', [fixed('f', 7), adaptive('a', 2, 8, 60)], 5, { f: 7, a: 0 }],
    ['min above max is read as max', [adaptive('a', 9, 4, 0)], 10, { a: 4 }],
  ])('%s', (_name, pools, budget, expected) => {
    expect(Object.fromEntries(sizePools({ pools, windowSeconds: WINDOW, budget }))).toEqual(expected);
  });
});

describe('apportion', () => {
  it.each<[number, number[], number[]]>([
    [0, [1, 2], [0, 0]],
    [3, [0, 0], [0, 0]],
    [6, [1, 2], [2, 4]],
    [1, [1, 1], [1, 0]],
    [5, [1, 1, 1], [2, 2, 1]],
    [4, [6, 1, 1], [3, 1, 0]],
    [7, [5, 3, 2], [4, 2, 1]],
  ])('%d over %j → %j', (total, weights, expected) => {
    const shares = apportion(total, weights);
    expect(shares).toEqual(expected);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(weights.some((w) => w > 0) ? total : 0);
  });
});
