import type { DataSource } from 'typeorm';
import { DataErrorCodes, LiveLessonStatus } from '@antidote/contracts';
import { DuplicateError, isUniqueViolation } from '../data.errors.js';
import { LiveLessonEntity } from '../entities/index.js';
import type { LiveLesson } from '../live.types.js';
import type { LiveLessonRepository } from './live-lesson.repository.js';

/** Candidates one claim tries, oldest first, before it reports the pool empty. */
const CLAIM_CANDIDATES = 20;

/** The session a pool member carries until it is claimed: unique per member (no learner session looks like it). */
export const poolSessionId = (liveLessonId: string): string => `pool-${liveLessonId}`;

/**
 * Warm-pool members: live lessons the scheduler builds before anyone asks (`pool` = 1), claimed by the
 * api for a learner. A claim is one conditional UPDATE per candidate, so two claimants (two api
 * replicas) never get the same member: the database serialises the writes and the loser's WHERE no
 * longer matches.
 */
export class WarmPoolRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly liveLessons: LiveLessonRepository,
    private readonly now: () => Date,
  ) {}

  /**
   * Binds a READY, healthy member of `lessonSlug` to `sessionId` and returns it (now an ordinary live
   * lesson of that session); undefined when the pool has none. A session that already has a live lesson
   * of this slug is a DuplicateError (the caller checked; this is the race).
   */
  async claim(lessonSlug: string, sessionId: string): Promise<LiveLesson | undefined> {
    const candidates = await this.dataSource.manager.find(LiveLessonEntity, {
      select: { id: true },
      where: { pool: true, lessonSlug, status: LiveLessonStatus.READY, error: false },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: CLAIM_CANDIDATES,
    });
    for (const { id } of candidates) {
      if (await this.take(id, sessionId)) return this.liveLessons.get(id);
    }
    return undefined;
  }

  /** Every unclaimed member with its endpoints, oldest first (deleting ones included: they still hold capacity). */
  async members(): Promise<LiveLesson[]> {
    return this.liveLessons.list({ pool: true });
  }

  /** Records the deletion of a member that is still unclaimed; false when a learner claimed it first. */
  async retire(id: string): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(LiveLessonEntity)
      .set({ deleteRequestedAt: this.now() })
      .where('id = :id AND pool = 1 AND delete_requested_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  private async take(id: string, sessionId: string): Promise<boolean> {
    const at = this.now();
    try {
      const result = await this.dataSource
        .createQueryBuilder()
        .update(LiveLessonEntity)
        .set({ sessionId, pool: false, lastActiveAt: at, updatedAt: at })
        .where('id = :id AND pool = 1 AND status = :ready AND error = 0 AND delete_requested_at IS NULL', { id, ready: LiveLessonStatus.READY })
        .execute();
      return (result.affected ?? 0) > 0;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new DuplicateError(`Session ${sessionId} already has a live lesson of this lesson`, DataErrorCodes.duplicate);
    }
  }
}
