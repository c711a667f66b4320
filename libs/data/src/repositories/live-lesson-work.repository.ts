import type { DataSource } from 'typeorm';
import { LiveLessonStatus } from '@antidote/contracts';
import { LiveLessonEntity } from '../entities/index.js';
import type { LiveLesson } from '../live.types.js';
import type { LiveLessonRepository } from './live-lesson.repository.js';
import { fromRow, sqlRows } from '../sql.js';

/** A live lesson's admission ticket: none (a warm-pool member, or no cap), waiting in line, admitted, or out of the line unadmitted. */
export type TicketState = 'none' | 'waiting' | 'admitted' | 'ended';

/** What a claim found of its row (`claimAndLook`): when it last changed, what a write changes, and its ticket's state. */
export interface ClaimedRow {
  updatedAt: Date;
  sessionId: string;
  status: LiveLessonStatus;
  error: boolean;
  currentStage: number;
  configuredStage?: number;
  deleteRequestedAt?: Date;
  ticket: TicketState;
}

/**
 * Who works on which live lesson (scheduler replicas claim rows with a lease) and what needs work or
 * has expired (re-drive and reaper queries). Times are passed in so tests can use their own clock.
 */
export class LiveLessonWorkRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly liveLessons: LiveLessonRepository,
    private readonly now: () => Date,
  ) {}

  /** Takes the row for `owner` if it is free, its lease expired, or it is already ours. Atomic. */
  async claim(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const now = this.now().getTime();
    const sql =
      'UPDATE live_lessons SET claimed_by = :owner, claimed_until = :until WHERE id = :id AND (claimed_by IS NULL OR claimed_until < :now OR claimed_by = :owner) RETURNING id';
    return (await sqlRows(this.dataSource, sql, { owner, until: now + leaseMs, now, id })).length > 0;
  }

  /**
   * `claim`, answering in the same statement what the work needs to know of the row at the moment it was
   * taken: when it last changed (a row read before the claim is current if it changed no later), whether
   * deletion was asked for, and its admission ticket's state. Undefined when the claim was not taken.
   */
  async claimAndLook(id: string, owner: string, leaseMs: number): Promise<ClaimedRow | undefined> {
    const now = this.now().getTime();
    const ticket =
      "(SELECT CASE WHEN t.admitted_at IS NOT NULL THEN 'admitted' WHEN t.ended_at IS NOT NULL THEN 'ended' ELSE 'waiting' END FROM admission_tickets t WHERE t.live_lesson_id = live_lessons.id)";
    const returning = 'updated_at, session_id, status, error, current_stage, configured_stage, delete_requested_at';
    const sql = `UPDATE live_lessons SET claimed_by = :owner, claimed_until = :until WHERE id = :id AND (claimed_by IS NULL OR claimed_until < :now OR claimed_by = :owner) RETURNING ${returning}, ${ticket} AS ticket`;
    const [row] = await sqlRows<Record<string, unknown>>(this.dataSource, sql, { owner, until: now + leaseMs, now, id });
    if (!row) return undefined;
    const { ticket: ticketState, ...columns } = row;
    const seen = fromRow(this.dataSource, LiveLessonEntity, columns);
    return {
      updatedAt: seen.updatedAt!,
      sessionId: seen.sessionId!,
      status: seen.status as LiveLessonStatus,
      error: seen.error!,
      currentStage: seen.currentStage!,
      ...(seen.configuredStage == null ? {} : { configuredStage: seen.configuredStage }),
      ...(seen.deleteRequestedAt == null ? {} : { deleteRequestedAt: seen.deleteRequestedAt }),
      ticket: (ticketState as TicketState | null) ?? 'none',
    };
  }

  /**
   * One heartbeat for every claim `owner` still works on: extends the leases of `ids` it holds and returns
   * them with their deletion flag (a running create sees a deletion requested elsewhere). An id missing
   * from the answer is no longer ours (gone, or taken over after our lease lapsed).
   */
  async renewAll(owner: string, ids: readonly string[], leaseMs: number): Promise<Map<string, { deleteRequested: boolean }>> {
    const kept = new Map<string, { deleteRequested: boolean }>();
    const until = this.now().getTime() + leaseMs;
    for (let i = 0; i < ids.length; i += 500) {
      const sql = 'UPDATE live_lessons SET claimed_until = :until WHERE claimed_by = :owner AND id IN (:...ids) RETURNING id, delete_requested_at';
      const rows = await sqlRows<{ id: string; delete_requested_at: unknown }>(this.dataSource, sql, { until, owner, ids: ids.slice(i, i + 500) });
      for (const row of rows) kept.set(row.id, { deleteRequested: row.delete_requested_at !== null && row.delete_requested_at !== undefined });
    }
    return kept;
  }

  async release(id: string, owner: string): Promise<void> {
    await sqlRows(this.dataSource, 'UPDATE live_lessons SET claimed_by = NULL, claimed_until = NULL WHERE id = :id AND claimed_by = :owner RETURNING id', {
      id,
      owner,
    });
  }

  /** Gives work back unfinished (shutdown): the lease ends now, so the next sweep of any replica takes it over. */
  async handBack(id: string, owner: string): Promise<void> {
    await sqlRows(this.dataSource, 'UPDATE live_lessons SET claimed_until = 0 WHERE id = :id AND claimed_by = :owner RETURNING id', { id, owner });
  }

  /**
   * Live lessons that need the scheduler — deletion requested, or not READY and not failed (accepted but
   * never started, or interrupted) — and that `owner` may take at once: those whose holder's lease lapsed
   * (it died, or handed them back), those `owner` itself held before a restart, and, with
   * `unclaimedBefore`, those nobody claimed that are untouched since then (a request no message reached).
   * A lab waiting in the admission queue needs no work until it is admitted (the scheduler's admission
   * pass starts it).
   */
  async findNeedingWork(options: { owner: string; unclaimedBefore?: Date; limit: number }): Promise<LiveLesson[]> {
    const takeable = ['(ll.claimed_by IS NOT NULL AND ll.claimed_until < :now)', 'll.claimed_by = :owner'];
    if (options.unclaimedBefore) takeable.push('(ll.claimed_by IS NULL AND ll.updated_at < :unclaimedBefore)');
    const rows = await this.dataSource.manager
      .createQueryBuilder(LiveLessonEntity, 'll')
      .select('ll.id', 'id')
      .where(`(${takeable.join(' OR ')})`, { now: this.now().getTime(), owner: options.owner, unclaimedBefore: options.unclaimedBefore?.getTime() ?? 0 })
      .andWhere('(ll.delete_requested_at IS NOT NULL OR (ll.error = 0 AND ll.status <> :ready))', { ready: LiveLessonStatus.READY })
      .andWhere(
        '(ll.delete_requested_at IS NOT NULL OR NOT EXISTS (SELECT 1 FROM admission_tickets t WHERE t.live_lesson_id = ll.id AND t.admitted_at IS NULL AND t.ended_at IS NULL))',
      )
      .orderBy('ll.updated_at', 'ASC')
      .limit(options.limit)
      .getRawMany<{ id: string }>();
    return this.liveLessons.byIds(rows.map((row) => row.id));
  }

  /** Not failed, idle since before `cutoff`, not an unclaimed pool member, and not in a persistent session (a missing session is not persistent). */
  async findIdle(cutoff: Date): Promise<LiveLesson[]> {
    const rows = await this.dataSource.manager
      .createQueryBuilder(LiveLessonEntity, 'll')
      .select('ll.id', 'id')
      .leftJoin('live_sessions', 'ls', 'ls.id = ll.session_id')
      .where('ll.error = 0')
      .andWhere('ll.pool = 0')
      .andWhere('ll.last_active_at < :cutoff', { cutoff: cutoff.getTime() })
      .andWhere('(ls.persistent IS NULL OR ls.persistent = 0)')
      .getRawMany<{ id: string }>();
    return this.liveLessons.byIds(rows.map((row) => row.id));
  }

  /**
   * The live lessons that should have a namespace by now, id and status only: not failed, past
   * INITIALIZED, no deletion asked, not claimed (its claimer may be making one), untouched since
   * `untouchedSince`. The reaper compares them with the namespaces it lists; reading every row whole
   * for that made its pass hold every held lesson in memory at once.
   */
  async expectingNamespace(untouchedSince: Date): Promise<{ id: string; status: LiveLessonStatus }[]> {
    return this.dataSource.manager
      .createQueryBuilder(LiveLessonEntity, 'll')
      .select('ll.id', 'id')
      .addSelect('ll.status', 'status')
      .where('ll.error = 0')
      .andWhere('ll.status <> :initialized', { initialized: LiveLessonStatus.INITIALIZED })
      .andWhere('ll.delete_requested_at IS NULL')
      .andWhere('(ll.claimed_until IS NULL OR ll.claimed_until <= :now)', { now: this.now().getTime() })
      .andWhere('ll.updated_at <= :untouchedSince', { untouchedSince: untouchedSince.getTime() })
      .getRawMany<{ id: string; status: LiveLessonStatus }>();
  }

  /** Failed live lessons whose failure is older than `cutoff`. */
  async findFailed(cutoff: Date): Promise<LiveLesson[]> {
    const failed = await this.liveLessons.list({ error: true });
    return failed.filter((lesson) => new Date(lesson.phaseTimes.failedAt ?? lesson.updatedAt).getTime() < cutoff.getTime());
  }
}
