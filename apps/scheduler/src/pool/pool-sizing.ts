/** A pool whose size is given: by the config (`size`) or an operator (`antictl pool resize`). */
export interface FixedPoolDemand {
  lessonSlug: string;
  kind: 'fixed';
  size: number;
}

/** A pool the scheduler sizes (`adaptive: true`) from its recent demand and how long a member takes to build. */
export interface AdaptivePoolDemand {
  lessonSlug: string;
  kind: 'adaptive';
  min: number;
  max: number;
  /** Requests for the lesson in the window: claims of a warm member and misses. */
  requests: number;
  /** Seconds a member takes from its row to READY (the time to refill one claim). */
  refillSeconds: number;
}

export type PoolDemandFacts = FixedPoolDemand | AdaptivePoolDemand;

export interface PoolSizingInput {
  pools: readonly PoolDemandFacts[];
  /** Seconds of demand `requests` counts. */
  windowSeconds: number;
  /** Members all pools may hold together (`scheduler.poolBudget`); Infinity: no bound. */
  budget: number;
}

/** Floating point must not turn an exact product (0.1 × 30) into one member more. */
const EPSILON = 1e-9;

/**
 * Members an adaptive pool needs so that claims rarely find it empty (Little's law): requests per
 * second × seconds to refill one member, rounded up, within `[min, max]`.
 */
export function adaptiveNeed(pool: Pick<AdaptivePoolDemand, 'min' | 'max' | 'requests' | 'refillSeconds'>, windowSeconds: number): number {
  const need = Math.ceil((pool.requests / windowSeconds) * pool.refillSeconds - EPSILON);
  return Math.min(pool.max, Math.max(pool.min, need));
}

/**
 * Splits `total` into integers in proportion to `weights` (largest remainder; ties to the earlier one).
 * With `total` below the sum of the weights, no share exceeds its weight.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const shares = exact.map((share) => Math.floor(share + EPSILON));
  let left = total - shares.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((share, i) => ({ i, remainder: share - shares[i] })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    shares[i]++;
    left--;
  }
  return shares;
}

/**
 * The size of every pool for this pass, as a pure function. Fixed pools keep their size (an operator's
 * explicit number) and take their part of the budget first; adaptive pools share what is left: each
 * gets its need when all needs fit, else its `min` first (the mins shared in proportion when even they
 * do not fit) and the rest of the budget in proportion to what each needs beyond its `min`.
 */
export function sizePools(input: PoolSizingInput): Map<string, number> {
  const sizes = new Map<string, number>();
  let left = input.budget;
  const adaptive: AdaptivePoolDemand[] = [];
  for (const pool of input.pools) {
    if (pool.kind === 'fixed') {
      sizes.set(pool.lessonSlug, pool.size);
      left -= pool.size;
    } else adaptive.push(pool);
  }
  left = Math.max(0, left);
  const needs = adaptive.map((pool) => adaptiveNeed(pool, input.windowSeconds));
  const mins = adaptive.map((pool) => Math.min(pool.min, pool.max));
  const totalNeed = needs.reduce((a, b) => a + b, 0);
  const totalMin = mins.reduce((a, b) => a + b, 0);
  let given: number[];
  if (totalNeed <= left) given = needs;
  else if (totalMin >= left) given = apportion(left, mins);
  else {
    const extra = apportion(
      left - totalMin,
      needs.map((need, i) => need - mins[i]),
    );
    given = mins.map((min, i) => min + extra[i]);
  }
  adaptive.forEach((pool, i) => sizes.set(pool.lessonSlug, given[i]));
  return sizes;
}
