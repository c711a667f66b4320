import { DEFAULT_POOL_MAX_AGE, isAdaptivePool, poolBudgetOf, type AntidoteConfig } from '@antidote/config';
import { DEMAND_BUCKET_MS, type DataManager, type LiveLesson } from '@antidote/data';
import type { PoolTarget } from './pool-plan.js';
import { sizePools, type PoolDemandFacts } from './pool-sizing.js';

/** Seconds to build a member assumed for a lesson none of whose members has reached READY yet. */
export const DEFAULT_REFILL_SECONDS = 60;
/** Seconds from row to READY of the members that reached READY, by lesson (median). */
function refillTimes(members: readonly LiveLesson[]): Map<string, number> {
  const samples = new Map<string, number[]>();
  for (const { lessonSlug, phaseTimes } of members) {
    if (!phaseTimes.initializedAt || !phaseTimes.readyAt) continue;
    const seconds = (Date.parse(phaseTimes.readyAt) - Date.parse(phaseTimes.initializedAt)) / 1000;
    if (seconds >= 0) samples.set(lessonSlug, [...(samples.get(lessonSlug) ?? []), seconds]);
  }
  return new Map([...samples].map(([slug, times]) => [slug, times.sort((a, b) => a - b)[Math.floor(times.length / 2)]]));
}

/**
 * Each pool's target for one pass: the config's `warmPools`, an operator's override (database, so every
 * replica sees it) winning over it, and adaptive pools sized by `sizePools` from the demand the api
 * counted in the last `scheduler.poolDemandWindowSeconds` and the time their members took to build,
 * within `scheduler.poolBudget`. Old demand buckets are forgotten on the way.
 */
export class PoolSizer {
  /** The last build time seen per lesson: a pool drained by a burst has no READY member to measure. */
  private readonly lastRefill = new Map<string, number>();

  constructor(
    private readonly data: DataManager,
    private readonly config: AntidoteConfig,
  ) {}

  async targets(members: readonly LiveLesson[], now: Date): Promise<Record<string, PoolTarget>> {
    const overrides = new Map((await this.data.poolSizing.overrides()).map((override) => [override.lessonSlug, override]));
    const windowSeconds = this.config.scheduler.poolDemandWindowSeconds;
    const since = new Date(now.getTime() - windowSeconds * 1000);
    const configured = this.config.warmPools;
    const adaptive = Object.entries(configured).some(([slug, pool]) => isAdaptivePool(pool) && !overrides.has(slug));
    const demand = adaptive ? await this.data.poolSizing.demandSince(since) : new Map<string, never>();
    await this.data.poolSizing.pruneDemand(new Date(since.getTime() - DEMAND_BUCKET_MS));
    for (const [slug, seconds] of refillTimes(members)) this.lastRefill.set(slug, seconds);

    const facts: PoolDemandFacts[] = [];
    const maxAges = new Map<string, number>();
    for (const slug of new Set([...Object.keys(configured), ...overrides.keys()])) {
      const pool = configured[slug];
      const override = overrides.get(slug);
      maxAges.set(slug, override?.maxAge ?? pool?.maxAge ?? DEFAULT_POOL_MAX_AGE);
      if (override) facts.push({ lessonSlug: slug, kind: 'fixed', size: override.size });
      else if (isAdaptivePool(pool)) {
        const { hits, misses } = demand.get(slug) ?? { hits: 0, misses: 0 };
        facts.push({
          lessonSlug: slug,
          kind: 'adaptive',
          min: pool.min,
          max: pool.max,
          requests: hits + misses,
          refillSeconds: this.lastRefill.get(slug) ?? DEFAULT_REFILL_SECONDS,
        });
      } else facts.push({ lessonSlug: slug, kind: 'fixed', size: pool.size });
    }
    const sizes = sizePools({ pools: facts, windowSeconds, budget: poolBudgetOf(this.config.scheduler) });
    return Object.fromEntries([...sizes].map(([slug, size]) => [slug, { size, maxAge: maxAges.get(slug)! }]));
  }
}
