import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMs, json } from '../transformers.js';

/** One live lesson's start that reached READY: how long its phases and each of its images took. */
@Entity({ name: 'lesson_starts' })
export class LessonStartEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, name: 'live_lesson_id' }) liveLessonId!: string;
  @Column({ type: 'varchar', length: 253, name: 'lesson_slug' }) lessonSlug!: string;
  /** Stored as epoch milliseconds. */
  @Index('idx_lesson_starts_ready_at')
  @Column({ type: 'bigint', name: 'ready_at', transformer: epochMs })
  readyAt!: Date;
  @Column({ type: 'integer', name: 'provision_ms' }) provisionMs!: number;
  @Column({ type: 'integer', name: 'configure_ms' }) configureMs!: number;
  /** Image → ms from BOOTING until its slowest endpoint was up. */
  @Column({ type: 'text', name: 'boot_ms', transformer: json }) bootMs!: Record<string, number>;
}
