import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import type { PhaseTimes } from '@antidote/contracts';
import type { LiveEndpoint } from '../live.types.js';
import { epochMs, flag, json } from '../transformers.js';

/** An endpoint as the row keeps it: what the lesson's curriculum made of it (its address and up time are columns of their own). */
export type StoredEndpoint = Omit<LiveEndpoint, 'host' | 'upAt'>;

@Entity({ name: 'live_lessons' })
@Unique('uq_live_lessons_session_lesson', ['sessionId', 'lessonSlug'])
export class LiveLessonEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id!: string;
  @Index('idx_live_lessons_session')
  @Column({ type: 'varchar', length: 64, name: 'session_id' })
  sessionId!: string;
  @Column({ type: 'varchar', length: 63, name: 'antidote_id' }) antidoteId!: string;
  @Column({ type: 'varchar', length: 253, name: 'lesson_slug' }) lessonSlug!: string;
  @Column({ type: 'integer', name: 'current_stage' }) currentStage!: number;
  @Column({ type: 'varchar', length: 16, name: 'guide_type' }) guideType!: string;
  @Column({ type: 'text', name: 'guide_contents' }) guideContents!: string;
  @Column({ type: 'text', name: 'guide_domain' }) guideDomain!: string;
  @Column({ type: 'varchar', length: 16 }) status!: string;
  @Column({ type: 'integer', transformer: flag }) error!: boolean;
  @Column({ type: 'text', name: 'failure_reason', nullable: true }) failureReason!: string | null;
  @Column({ type: 'integer', name: 'healthy_tests' }) healthyTests!: number;
  @Column({ type: 'integer', name: 'total_tests' }) totalTests!: number;
  @Column({ type: 'bigint', name: 'created_at', transformer: epochMs }) createdAt!: Date;
  @Column({ type: 'bigint', name: 'last_active_at', transformer: epochMs }) lastActiveAt!: Date;
  @Column({ type: 'bigint', name: 'updated_at', transformer: epochMs }) updatedAt!: Date;
  @Column({ type: 'text', name: 'phase_times', transformer: json }) phaseTimes!: PhaseTimes;
  @Column({ type: 'integer', name: 'configured_stage', nullable: true }) configuredStage!: number | null;
  @Column({ type: 'bigint', name: 'delete_requested_at', nullable: true, transformer: epochMs }) deleteRequestedAt!: Date | null;
  @Column({ type: 'varchar', length: 128, name: 'claimed_by', nullable: true }) claimedBy!: string | null;
  @Column({ type: 'bigint', name: 'claimed_until', nullable: true, transformer: epochMs }) claimedUntil!: Date | null;
  /** An unclaimed warm-pool member (no learner yet); a claim clears it. */
  @Column({ type: 'integer', transformer: flag, default: 0 }) pool!: boolean;
  /** When its start is expected to reach READY (from recent starts of its images); null: no estimate. */
  @Column({ type: 'bigint', name: 'estimated_ready_at', nullable: true, transformer: epochMs }) estimatedReadyAt!: Date | null;
  /** JSON: the endpoints, in position order (the jupyter guide's added last). */
  @Column({ type: 'text', transformer: json }) endpoints!: StoredEndpoint[];
  /** JSON: endpoint name → its Service address, written with BOOTING. */
  @Column({ type: 'text', name: 'endpoint_hosts', transformer: json }) endpointHosts!: Record<string, string>;
  /** JSON: endpoint name → when the healthchecker first found it up during the start (epoch ms); what a restarted healthchecker resumes from. */
  @Column({ type: 'text', name: 'endpoint_up_at', transformer: json }) endpointUpAt!: Record<string, number>;
}
