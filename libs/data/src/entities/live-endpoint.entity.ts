import type { ReadinessCheck } from '@antidote/contracts';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { epochMs, json } from '../transformers.js';
import type { LivePresentation } from '../live.types.js';
import { LiveLessonEntity } from './live-lesson.entity.js';

@Entity({ name: 'live_endpoints' })
export class LiveEndpointEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, name: 'live_lesson_id' }) liveLessonId!: string;
  @PrimaryColumn({ type: 'varchar', length: 63 }) name!: string;
  @Column({ type: 'integer' }) position!: number;
  @Column({ type: 'text' }) image!: string;
  @Column({ type: 'text', transformer: json }) ports!: number[];
  @Column({ type: 'text', transformer: json }) presentations!: LivePresentation[];
  @Column({ type: 'varchar', length: 16, name: 'configuration_type' }) configurationType!: string;
  @Column({ type: 'text', name: 'configuration_file' }) configurationFile!: string;
  @Column({ type: 'text', name: 'ssh_user' }) sshUser!: string;
  @Column({ type: 'text', name: 'ssh_password' }) sshPassword!: string;
  @Column({ type: 'varchar', length: 64, nullable: true }) host!: string | null;
  /** JSON; null when the endpoint's image declares no readiness check. */
  @Column({ type: 'text', nullable: true, transformer: json }) readiness!: ReadinessCheck | null;
  /** When the healthchecker first found it up during its lesson's start; null: not yet. */
  @Column({ type: 'bigint', name: 'up_at', nullable: true, transformer: epochMs }) upAt!: Date | null;
  @ManyToOne(() => LiveLessonEntity, (lesson) => lesson.endpoints, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'live_lesson_id' })
  liveLesson?: LiveLessonEntity;
}
