import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { LessonAuthor, LessonConnection, LessonEndpoint, LessonStage } from '@antidote/curriculum';
import { json } from '../transformers.js';

/** A lesson; its nested parts are JSON so they round-trip exactly to the `Lesson` type. */
@Entity({ name: 'lessons' })
export class LessonEntity {
  @PrimaryColumn({ type: 'varchar', length: 253 }) slug!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'varchar', length: 32 }) category!: string;
  @Column({ type: 'text' }) diagram!: string;
  @Column({ type: 'text' }) video!: string;
  @Column({ type: 'varchar', length: 16 }) tier!: string;
  @Column({ type: 'text' }) collection!: string;
  @Column({ type: 'text' }) description!: string;
  @Column({ type: 'text', name: 'short_description' }) shortDescription!: string;
  @Column({ type: 'text', transformer: json }) prereqs!: string[];
  @Column({ type: 'text', transformer: json }) tags!: string[];
  @Column({ type: 'text', transformer: json }) stages!: LessonStage[];
  @Column({ type: 'text', transformer: json }) endpoints!: LessonEndpoint[];
  @Column({ type: 'text', transformer: json }) connections!: LessonConnection[];
  @Column({ type: 'text', transformer: json }) authors!: LessonAuthor[];
  @Column({ type: 'integer', name: 'ready_delay' }) readyDelay!: number;
  @Column({ type: 'text', name: 'lesson_file' }) lessonFile!: string;
  @Column({ type: 'text', name: 'lesson_dir' }) lessonDir!: string;
}
