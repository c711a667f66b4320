import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMs } from '../transformers.js';

/** An operator's size for one lesson's warm pool (`antictl pool resize`): it wins over `warmPools` in the config. */
@Entity({ name: 'warm_pool_overrides' })
export class WarmPoolOverrideEntity {
  @PrimaryColumn({ type: 'varchar', length: 253, name: 'lesson_slug' }) lessonSlug!: string;
  @Column({ type: 'integer' }) size!: number;
  /** Seconds; null: the config's `maxAge` (else the default). */
  @Column({ type: 'integer', name: 'max_age', nullable: true }) maxAge!: number | null;
  @Column({ type: 'bigint', name: 'updated_at', transformer: epochMs }) updatedAt!: Date;
}
