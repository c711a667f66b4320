import type { WarmPoolConfig } from '@antidote/config';
import { LiveLessonStatus, type PoolSummary } from '@antidote/contracts';
import type { LiveLesson } from '@antidote/data';

/** Each configured pool with its unclaimed members by state (`GET /exp/admin/pools`, `antictl pool list`). */
export function summarizePools(pools: Readonly<Record<string, WarmPoolConfig>>, members: readonly Pick<LiveLesson, 'lessonSlug' | 'status' | 'error' | 'deleteRequestedAt'>[]): PoolSummary[] {
  return Object.entries(pools).map(([lesson, { size, maxAge }]) => {
    const own = members.filter((member) => member.lessonSlug === lesson);
    const retiring = own.filter((member) => member.error || member.deleteRequestedAt !== undefined).length;
    const ready = own.filter((member) => !member.error && member.deleteRequestedAt === undefined && member.status === LiveLessonStatus.READY).length;
    return { lesson, size, maxAge, ready, building: own.length - retiring - ready, retiring };
  });
}
