import { DEFAULT_POOL_MAX_AGE, isAdaptivePool, type WarmPoolConfig } from '@antidote/config';
import { LiveLessonStatus, type PoolSummary } from '@antidote/contracts';
import type { LiveLesson, PoolOverride } from '@antidote/data';

type Member = Pick<LiveLesson, 'lessonSlug' | 'status' | 'error' | 'deleteRequestedAt'>;

/** How a pool is sized: an operator's override wins over the config. */
function sizing(pool: WarmPoolConfig | undefined, override: PoolOverride | undefined): Pick<PoolSummary, 'mode' | 'size' | 'min' | 'max' | 'maxAge'> {
  const maxAge = override?.maxAge ?? pool?.maxAge ?? DEFAULT_POOL_MAX_AGE;
  if (override) return { mode: 'override', size: override.size, maxAge };
  if (pool && isAdaptivePool(pool)) return { mode: 'adaptive', min: pool.min, max: pool.max, maxAge };
  return { mode: 'fixed', size: pool?.size ?? 0, maxAge };
}

/** Each pool (configured or set by an operator) with its unclaimed members by state (`GET /exp/admin/pools`, `antictl pool list`). */
export function summarizePools(pools: Readonly<Record<string, WarmPoolConfig>>, overrides: readonly PoolOverride[], members: readonly Member[]): PoolSummary[] {
  const byLesson = new Map(overrides.map((override) => [override.lessonSlug, override]));
  return [...new Set([...Object.keys(pools), ...byLesson.keys()])].map((lesson) => {
    const own = members.filter((member) => member.lessonSlug === lesson);
    const retiring = own.filter((member) => member.error || member.deleteRequestedAt !== undefined).length;
    const ready = own.filter((member) => !member.error && member.deleteRequestedAt === undefined && member.status === LiveLessonStatus.READY).length;
    return { lesson, ...sizing(pools[lesson], byLesson.get(lesson)), ready, building: own.length - retiring - ready, retiring };
  });
}
