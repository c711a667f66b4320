import type { DataSource, EntityManager } from 'typeorm';
import { AdmissionTicketEntity } from '../entities/index.js';
import { selectEntities, sqlCount, sqlRows } from '../sql.js';
import { inTransaction } from '../transaction.js';

/** One learner's lab in the waiting room (see AdmissionTicketEntity). */
export type AdmissionTicket = AdmissionTicketEntity;

/** Who asks for a lab: its row (written first), its session, the client address and the lesson. */
export interface AdmissionRequest {
  liveLessonId: string;
  sessionId: string;
  client: string;
  lessonSlug: string;
}

/** `admitted`: build it now; `waiting`: in line at `position` (1 = next); `full`: the waiting room holds `maxQueued` already. */
export type EnqueueResult = { kind: 'admitted' } | { kind: 'waiting'; position: number } | { kind: 'full'; waiting: number };

export interface DrainResult {
  admitted: AdmissionTicket[];
  /** Waiting tickets nobody asked about since the cut-off: their labs are to be deleted. */
  abandoned: string[];
  /** Waiting tickets whose lab was deleted or failed meanwhile. */
  cancelled: string[];
  /** Still waiting after this pass. */
  waiting: number;
}

/** `cap` is `scheduler.maxLiveLessons` (0 = unlimited). */
export interface QueueLimits {
  cap: number;
  maxQueued: number;
}

export const WAITING = 'admitted_at IS NULL AND ended_at IS NULL';
const ORDER = 'round ASC, seq ASC';
/** A waiting lab's presence is written at most this often. */
const SEEN_EVERY_MS = 5000;
/**
 * Live lessons that hold capacity: not failed, and being built or built (past INITIALIZED), a warm-pool
 * member, or admitted from the queue. A learner's row the api has written but not yet queued holds none.
 */
export const HOLDING_WHERE = `ll.error = 0 AND (ll.status <> 'INITIALIZED' OR ll.pool = 1 OR EXISTS (SELECT 1 FROM admission_tickets t WHERE t.live_lesson_id = ll.id AND t.admitted_at IS NOT NULL))`;
const HOLDING = `FROM live_lessons ll WHERE ${HOLDING_WHERE} AND ll.id <> :exclude`;

/**
 * The waiting room, in the database so that every api and scheduler replica sees one queue and a restart
 * loses nobody's place. Writers (enqueue, drain) serialise on the one row of `admission_state` (a row
 * lock on PostgreSQL, the write lock on SQLite), so two replicas never admit past the cap.
 *
 * Order: fair queueing by rounds. A client's first waiting request is in the head's round, its second in
 * the next, and so on; within a round, arrival order. So one address with many requests cannot push
 * others back: clients are served round-robin, each client's own requests first come, first served. A
 * client's first waiting request never loses its place; a later one of a client with several waiting can
 * be passed by a newcomer's first (that is the fairness).
 */
export class AdmissionQueueRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly now: () => Date,
  ) {}

  /**
   * Admits the request at once when capacity is free and nobody waits; otherwise puts it in line, or
   * answers `full`. `writeLab`, when given, writes the lab's row in the same transaction, before its
   * ticket and only when the answer is not `full` (so a full line leaves nothing behind).
   */
  async enqueue(request: AdmissionRequest, limits: QueueLimits, writeLab?: (manager: EntityManager) => Promise<unknown>): Promise<EnqueueResult> {
    if (limits.cap <= 0) {
      // No cap: nobody ever waits, so no order to keep and no lock to take (a burst of requests is not serialised).
      const now = this.now().getTime();
      const at = { round: 0, seq: 0, now, admittedAt: now };
      if (!writeLab) await this.insert(undefined, request, at);
      else await inTransaction(this.dataSource, async (manager) => void (await writeLab(manager), await this.insert(manager, request, at)));
      return { kind: 'admitted' };
    }
    return inTransaction(this.dataSource, async (manager) => {
      const seq = await this.lock(manager);
      const { waiting, holding, head, last } = await this.standing(request, manager);
      const free = limits.cap - holding;
      const now = this.now().getTime();
      if (waiting === 0 && free > 0) {
        await writeLab?.(manager);
        await this.insert(manager, request, { round: head, seq, now, admittedAt: now });
        return { kind: 'admitted' };
      }
      if (waiting >= limits.maxQueued) return { kind: 'full', waiting };
      const round = last === undefined ? head : Math.max(head, last + 1);
      await writeLab?.(manager);
      await this.insert(manager, request, { round, seq, now, admittedAt: null });
      const ahead = await sqlCount(
        this.dataSource,
        `FROM admission_tickets WHERE ${WAITING} AND (round < :round OR (round = :round AND seq < :seq))`,
        { round, seq },
        manager,
      );
      return { kind: 'waiting', position: ahead + 1 };
    });
  }

  /**
   * One admission pass: drops waiting tickets whose lab is gone, failed or being deleted (`cancelled`) and
   * those nobody asked about since `abandonBefore` (`abandoned`), then admits waiting tickets in order
   * into the free capacity.
   */
  async drain(cap: number, abandonBefore: Date): Promise<DrainResult> {
    return inTransaction(this.dataSource, async (manager) => {
      await this.lock(manager);
      const now = this.now().getTime();
      const ended = async (outcome: string, condition: string, parameters: Record<string, unknown> = {}): Promise<string[]> =>
        (
          await sqlRows<{ live_lesson_id: string }>(
            this.dataSource,
            `UPDATE admission_tickets SET ended_at = :now, outcome = :outcome WHERE ${WAITING} AND ${condition} RETURNING live_lesson_id`,
            { now, outcome, ...parameters },
            manager,
          )
        ).map((row) => row.live_lesson_id);
      const cancelled = await ended(
        'cancelled',
        'NOT EXISTS (SELECT 1 FROM live_lessons ll WHERE ll.id = admission_tickets.live_lesson_id AND ll.error = 0 AND ll.delete_requested_at IS NULL)',
      );
      const abandoned = await ended('abandoned', 'last_seen_at < :before', { before: abandonBefore.getTime() });
      const free = cap > 0 ? cap - (await this.holding('', manager)) : Number.POSITIVE_INFINITY;
      const admitted =
        free > 0
          ? await selectEntities(
              this.dataSource,
              AdmissionTicketEntity,
              WAITING,
              {},
              `${ORDER}${Number.isFinite(free) ? ` LIMIT ${Math.floor(free)}` : ''}`,
              manager,
            )
          : [];
      if (admitted.length > 0) {
        await sqlRows(
          this.dataSource,
          'UPDATE admission_tickets SET admitted_at = :now WHERE live_lesson_id IN (:...ids) RETURNING live_lesson_id',
          { now, ids: admitted.map((t) => t.liveLessonId) },
          manager,
        );
      }
      const waiting = await sqlCount(this.dataSource, `FROM admission_tickets WHERE ${WAITING}`, {}, manager);
      return { admitted: admitted.map((ticket) => ({ ...ticket, admittedAt: new Date(now) })), abandoned, cancelled, waiting };
    });
  }

  async find(liveLessonId: string): Promise<AdmissionTicket | undefined> {
    const [ticket] = await selectEntities(this.dataSource, AdmissionTicketEntity, 'live_lesson_id = :liveLessonId', { liveLessonId });
    return ticket;
  }

  /** Where a waiting lab stands (1 = next) and how many wait; undefined when it is not waiting. */
  async position(liveLessonId: string): Promise<{ position: number; waiting: number } | undefined> {
    const [row] = await sqlRows<{ position: number | string; waiting: number | string }>(
      this.dataSource,
      `SELECT (SELECT COUNT(*) FROM admission_tickets w WHERE w.admitted_at IS NULL AND w.ended_at IS NULL AND (w.round < t.round OR (w.round = t.round AND w.seq <= t.seq))) AS position,
        (SELECT COUNT(*) FROM admission_tickets w WHERE w.admitted_at IS NULL AND w.ended_at IS NULL) AS waiting
       FROM admission_tickets t WHERE t.live_lesson_id = :liveLessonId AND t.admitted_at IS NULL AND t.ended_at IS NULL`,
      { liveLessonId },
    );
    return row && { position: Number(row.position), waiting: Number(row.waiting) };
  }

  /** The waiting tickets, next first. */
  async waiting(): Promise<AdmissionTicket[]> {
    return selectEntities(this.dataSource, AdmissionTicketEntity, WAITING, {}, ORDER);
  }

  async waitingCount(): Promise<number> {
    return sqlCount(this.dataSource, `FROM admission_tickets WHERE ${WAITING}`, {});
  }

  /**
   * Someone asked about these waiting labs now (polling, an event stream, a keep-alive): they are not
   * abandoned, and their learner is active (the lab's idle clock restarts). Written at most every
   * `SEEN_EVERY_MS` per lab, so a page polling each second costs a write every few seconds.
   */
  async seen(liveLessonIds: readonly string[]): Promise<void> {
    if (liveLessonIds.length === 0) return;
    const now = this.now().getTime();
    const seen = await sqlRows<{ live_lesson_id: string }>(
      this.dataSource,
      `UPDATE admission_tickets SET last_seen_at = :now WHERE live_lesson_id IN (:...ids) AND ${WAITING} AND last_seen_at < :stale RETURNING live_lesson_id`,
      { now, stale: now - SEEN_EVERY_MS, ids: liveLessonIds },
    );
    if (seen.length === 0) return;
    await sqlRows(this.dataSource, 'UPDATE live_lessons SET last_active_at = :now WHERE id IN (:...ids) RETURNING id', {
      now,
      ids: seen.map((row) => row.live_lesson_id),
    });
  }

  /** Live lessons holding capacity (`HOLDING`), `exclude` aside. */
  async holding(exclude = '', manager?: EntityManager): Promise<number> {
    return sqlCount(this.dataSource, HOLDING, { exclude }, manager);
  }

  /** Takes the queue's lock for the transaction; returns the next arrival number. */
  private async lock(manager: EntityManager): Promise<number> {
    const [row] = await sqlRows<{ next_seq: number | string }>(
      this.dataSource,
      'UPDATE admission_state SET next_seq = next_seq + 1 WHERE id = 1 RETURNING next_seq',
      {},
      manager,
    );
    if (!row) throw new Error('admission_state has no row: run the migrations');
    return Number(row.next_seq);
  }

  /**
   * Under the lock, in one statement: how many wait, how many labs hold capacity (the request's own aside),
   * the head's round (else the latest round, else 0) and the client's latest round among its tickets not ended.
   */
  private async standing(request: AdmissionRequest, manager: EntityManager): Promise<{ waiting: number; holding: number; head: number; last?: number }> {
    const [row] = await sqlRows<{ waiting: number | string; holding: number | string; head: number | string; last: number | string | null }>(
      this.dataSource,
      `SELECT (SELECT COUNT(*) FROM admission_tickets WHERE ${WAITING}) AS waiting,
        (SELECT COUNT(*) ${HOLDING}) AS holding,
        COALESCE((SELECT MIN(round) FROM admission_tickets WHERE ${WAITING}), (SELECT MAX(round) FROM admission_tickets), 0) AS head,
        (SELECT MAX(round) FROM admission_tickets WHERE client = :client AND ended_at IS NULL) AS last`,
      { client: request.client, exclude: request.liveLessonId },
      manager,
    );
    const last = row?.last === null || row?.last === undefined ? {} : { last: Number(row.last) };
    return { waiting: Number(row?.waiting ?? 0), holding: Number(row?.holding ?? 0), head: Number(row?.head ?? 0), ...last };
  }

  private async insert(
    manager: EntityManager | undefined,
    request: AdmissionRequest,
    at: { round: number; seq: number; now: number; admittedAt: number | null },
  ): Promise<void> {
    await sqlRows(
      this.dataSource,
      `INSERT INTO admission_tickets (live_lesson_id, session_id, client, lesson_slug, round, seq, enqueued_at, last_seen_at, admitted_at)
       VALUES (:liveLessonId, :sessionId, :client, :lessonSlug, :round, :seq, :now, :now, :admittedAt) RETURNING live_lesson_id`,
      { ...request, round: at.round, seq: at.seq, now: at.now, admittedAt: at.admittedAt },
      manager,
    );
  }
}
