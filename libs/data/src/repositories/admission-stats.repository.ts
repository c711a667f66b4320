import type { DataSource } from 'typeorm';
import { AdmissionTicketEntity, LiveLessonEntity, LiveSessionEntity } from '../entities/index.js';
import { fromRow, sqlRows } from '../sql.js';
import { HOLDING_WHERE } from './admission-queue.repository.js';

/** A live lesson holding capacity, as the wait estimate sees it. */
export interface CapacityHolder {
  liveLessonId: string;
  /** When it took its capacity: admitted from the queue, else its row's creation. */
  since: Date;
  lastActiveAt: Date;
  /** In a persistent session: never expires. */
  persistent: boolean;
  /** An unclaimed warm-pool member. */
  pool: boolean;
  /** Its deletion is under way. */
  deleting: boolean;
}

/** What the queue did since a time: slot lifetimes of ended labs, waits of admitted requests, requests abandoned. */
export interface AdmissionHistory {
  /** Seconds from admission to the lab's end (gone or failed), newest first. */
  lifetimes: number[];
  /** Seconds from request to admission of the requests that waited (admitted since), newest first. */
  waits: number[];
  abandoned: number;
}

/** The queue's history and the capacity it waits for: what wait estimates, metrics and `antictl queue` read. */
export class AdmissionStatsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly now: () => Date,
  ) {}

  /** Every live lesson holding capacity (`HOLDING_WHERE`), with the times its end is estimated from. */
  async holders(): Promise<CapacityHolder[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.dataSource,
      `SELECT ll.id, ll.created_at, ll.last_active_at, ll.pool, ll.delete_requested_at, ls.persistent, t.admitted_at
       FROM live_lessons ll LEFT JOIN live_sessions ls ON ls.id = ll.session_id LEFT JOIN admission_tickets t ON t.live_lesson_id = ll.id
       WHERE ${HOLDING_WHERE}`,
      {},
    );
    return rows.map((row) => {
      const lesson = fromRow(this.dataSource, LiveLessonEntity, row);
      const { persistent } = fromRow(this.dataSource, LiveSessionEntity, row);
      const { admittedAt } = fromRow(this.dataSource, AdmissionTicketEntity, row);
      return {
        liveLessonId: lesson.id!,
        since: admittedAt ?? lesson.createdAt!,
        lastActiveAt: lesson.lastActiveAt!,
        persistent: persistent ?? false,
        pool: lesson.pool!,
        deleting: lesson.deleteRequestedAt !== null,
      };
    });
  }

  /** Lifetimes, waits and abandonments since `since` (at most `limit` of each list, newest first). */
  async history(since: Date, limit = 500): Promise<AdmissionHistory> {
    const at = since.getTime();
    const rows = await sqlRows<Record<string, unknown>>(
      this.dataSource,
      'SELECT enqueued_at, admitted_at, ended_at, outcome FROM admission_tickets WHERE ended_at >= :at OR admitted_at >= :at ORDER BY COALESCE(ended_at, admitted_at) DESC',
      { at },
    );
    const history: AdmissionHistory = { lifetimes: [], waits: [], abandoned: 0 };
    for (const row of rows) {
      const { enqueuedAt, admittedAt, endedAt, outcome } = fromRow(this.dataSource, AdmissionTicketEntity, row);
      const [enqueued, admitted, ended] = [enqueuedAt!.getTime(), admittedAt?.getTime(), endedAt?.getTime()];
      if (outcome === 'abandoned' && ended !== undefined && ended >= at) history.abandoned++;
      if (outcome === 'ended' && admitted !== undefined && ended !== undefined && ended >= at && history.lifetimes.length < limit)
        history.lifetimes.push((ended - admitted) / 1000);
      if (admitted !== undefined && admitted >= at && admitted > enqueued && history.waits.length < limit) history.waits.push((admitted - enqueued) / 1000);
    }
    return history;
  }

  /**
   * Closes the tickets of admitted labs that are gone or failed (their slot is free: the lifetime is
   * known), and forgets ended tickets older than `forgetBefore`.
   */
  async settle(forgetBefore: Date): Promise<void> {
    await sqlRows(
      this.dataSource,
      `UPDATE admission_tickets SET ended_at = :now, outcome = 'ended' WHERE admitted_at IS NOT NULL AND ended_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM live_lessons ll WHERE ll.id = admission_tickets.live_lesson_id AND ll.error = 0) RETURNING live_lesson_id`,
      { now: this.now().getTime() },
    );
    await sqlRows(this.dataSource, 'DELETE FROM admission_tickets WHERE ended_at < :before RETURNING live_lesson_id', { before: forgetBefore.getTime() });
  }

  /** Admitted labs still INITIALIZED and unclaimed since before `before`: their create was lost (a restart, a race); submit it again. */
  async admittedNotStarted(before: Date): Promise<string[]> {
    const rows = await sqlRows<{ id: string }>(
      this.dataSource,
      `SELECT ll.id FROM live_lessons ll JOIN admission_tickets t ON t.live_lesson_id = ll.id
       WHERE t.admitted_at < :before AND t.ended_at IS NULL AND ll.status = 'INITIALIZED' AND ll.error = 0 AND ll.delete_requested_at IS NULL
       AND (ll.claimed_by IS NULL OR ll.claimed_until < :now)`,
      { before: before.getTime(), now: this.now().getTime() },
    );
    return rows.map((row) => row.id);
  }
}
