import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMs } from '../transformers.js';

/** A bigint column read as a number (PostgreSQL's driver answers a string). */
const count = { to: (value: number) => value, from: (value: string | number) => Number(value) };

/**
 * One learner's lab in the waiting room: waiting (`admittedAt` null), admitted (it may hold capacity),
 * then ended (its lab gone or failed, or it left the queue: `outcome`). Ended tickets are kept an hour
 * for the wait and lifetime figures.
 */
@Entity({ name: 'admission_tickets' })
export class AdmissionTicketEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, name: 'live_lesson_id' }) liveLessonId!: string;
  @Column({ type: 'varchar', length: 64, name: 'session_id' }) sessionId!: string;
  /** The client address (the api's client key) the request came from. */
  @Column({ type: 'varchar', length: 64 }) client!: string;
  @Column({ type: 'varchar', length: 253, name: 'lesson_slug' }) lessonSlug!: string;
  /** Fair-queueing round: a client's n-th waiting request is in the n-th round from the head's. */
  @Column({ type: 'bigint', transformer: count }) round!: number;
  /** Arrival order (ties within a round). */
  @Column({ type: 'bigint', transformer: count }) seq!: number;
  @Column({ type: 'bigint', name: 'enqueued_at', transformer: epochMs }) enqueuedAt!: Date;
  @Column({ type: 'bigint', name: 'last_seen_at', transformer: epochMs }) lastSeenAt!: Date;
  @Column({ type: 'bigint', name: 'admitted_at', nullable: true, transformer: epochMs }) admittedAt!: Date | null;
  @Column({ type: 'bigint', name: 'ended_at', nullable: true, transformer: epochMs }) endedAt!: Date | null;
  /** `ended` (its lab is gone or failed), `abandoned` (nobody asked about it), `cancelled` (ended while waiting). */
  @Column({ type: 'varchar', length: 16, nullable: true }) outcome!: string | null;
}
