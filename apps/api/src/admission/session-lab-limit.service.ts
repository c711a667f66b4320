import { Inject, Injectable } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { DataManager, type LiveLesson } from '@antidote/data';
import { endLab } from '../live-lessons/end-lab.js';
import { SchedulerHandoff } from '../live-lessons/scheduler-handoff.service.js';
import { liveLessonLimit } from './admission.errors.js';

/** Least recently used first (then the oldest). */
const leastRecentlyUsed = (a: LiveLesson, b: LiveLesson): number =>
  a.lastActiveAt.getTime() - b.lastActiveAt.getTime() || a.createdAt.getTime() - b.createdAt.getTime();

/**
 * `liveLessonLimit` labs per session. Labs being deleted or failed hold no place. Past the limit the
 * answer is `LIVE_LESSON_LIMIT` naming the lab to end (the one used least recently), so a page can offer
 * "end it and start this one"; the same request with `replaceOldest: true` does both in one call.
 */
@Injectable()
export class SessionLabLimit {
  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(SchedulerHandoff) private readonly handoff: SchedulerHandoff,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  /**
   * The labs in the way of one more, among the session's labs (`sessionLabs`, as read for this request):
   * none when there is room; past the limit, with `replaceOldest`, the least recently used (to `end`),
   * else 429 naming it. Changes nothing. Labs being deleted or failed hold no place.
   */
  async inTheWay(sessionLabs: readonly LiveLesson[], replaceOldest: boolean): Promise<LiveLesson[]> {
    const limit = this.config.liveLessonLimit;
    if (limit <= 0) return [];
    const labs = sessionLabs.filter((lab) => !lab.deleteRequestedAt && !lab.error).sort(leastRecentlyUsed);
    const inTheWay = labs.slice(0, labs.length - limit + 1);
    if (inTheWay.length === 0 || replaceOldest) return inTheWay;
    const [oldest] = inTheWay;
    const lessonName = (await this.data.curriculum.findLesson(oldest.lessonSlug))?.name ?? oldest.lessonSlug;
    throw liveLessonLimit(limit, { id: oldest.id, lessonSlug: oldest.lessonSlug, lessonName });
  }

  /** Ends labs to make room for a new one of their session. */
  async end(labs: readonly LiveLesson[]): Promise<void> {
    for (const lab of labs) await endLab(this.data, this.handoff, lab.id, 'replaced by a new lab of its session');
  }
}
