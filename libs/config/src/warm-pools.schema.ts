import { lessonSlugSchema } from '@antidote/contracts';
import { z } from 'zod';

const members = z.number().int().min(0).max(1000);

/** Seconds a member may wait unclaimed when the config says nothing (`maxAge`). */
export const DEFAULT_POOL_MAX_AGE = 3600;

/** A pool of a fixed size. */
export interface StaticWarmPoolConfig {
  /** Members kept READY (0 = none; they count against `scheduler.maxLiveLessons`, never against a learner's limits). */
  size: number;
  /** Seconds a member waits unclaimed before it is replaced by a fresh one (0 = never). */
  maxAge: number;
}

/** A pool sized by the scheduler from recent demand and time to READY, within `[min, max]` and `scheduler.poolBudget`. */
export interface AdaptiveWarmPoolConfig {
  adaptive: true;
  min: number;
  max: number;
  maxAge: number;
}

export type WarmPoolConfig = StaticWarmPoolConfig | AdaptiveWarmPoolConfig;

export const isAdaptivePool = (pool: WarmPoolConfig): pool is AdaptiveWarmPoolConfig => 'adaptive' in pool && pool.adaptive;

/**
 * One lesson's warm pool: `{ size, maxAge }` (fixed size) or `{ adaptive: true, min, max, maxAge }`
 * (sized from demand). Live lessons kept READY at stage 0, each replaced once older than `maxAge` seconds.
 */
const warmPoolObject = z
  .object({
    size: members.optional(),
    adaptive: z.literal(true).optional(),
    min: members.optional(),
    max: members.optional(),
    maxAge: z.number().min(0).default(DEFAULT_POOL_MAX_AGE),
  })
  .strict()
  .superRefine((pool, ctx) => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!pool.adaptive) {
      if (pool.size === undefined) problem('size', 'a pool needs a size (or adaptive: true with min and max)');
      for (const key of ['min', 'max'] as const) if (pool[key] !== undefined) problem(key, `${key} is for adaptive pools only (adaptive: true)`);
      return;
    }
    if (pool.size !== undefined) problem('size', 'an adaptive pool has min and max, not a size');
    if (pool.max === undefined) problem('max', 'an adaptive pool needs max');
    if (pool.max !== undefined && (pool.min ?? 0) > pool.max) problem('min', `min (${pool.min}) is above max (${pool.max})`);
  });

/** Adaptive pools read `min` as 0 when it is left out. */
export const warmPoolSchema = warmPoolObject.transform((pool): WarmPoolConfig =>
  pool.adaptive ? { adaptive: true, min: pool.min ?? 0, max: pool.max ?? 0, maxAge: pool.maxAge } : { size: pool.size ?? 0, maxAge: pool.maxAge },
);

/** `warmPools: { <lessonSlug>: { size, maxAge } | { adaptive: true, min, max, maxAge } }`; empty (the default): no pools, every lab is built when asked for. */
export const warmPoolsSchema = z.record(lessonSlugSchema, warmPoolSchema);

/** `scheduler.poolBudget` as it applies: the value given, else a quarter of `maxLiveLessons` (rounded up); Infinity when unlimited (0, or unset with no cap). */
export function poolBudgetOf(scheduler: { poolBudget?: number; maxLiveLessons: number }): number {
  const budget = scheduler.poolBudget ?? Math.ceil(scheduler.maxLiveLessons / 4);
  return budget > 0 ? budget : Number.POSITIVE_INFINITY;
}
