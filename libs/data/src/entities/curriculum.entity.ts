import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMs } from '../transformers.js';

/** The single curriculum record (id 1). */
@Entity({ name: 'curriculum' })
export class CurriculumEntity {
  @PrimaryColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) description!: string;
  @Column({ type: 'text' }) website!: string;
  @Column({ type: 'text', name: 'a_ver' }) aVer!: string;
  @Column({ type: 'text', name: 'git_root' }) gitRoot!: string;
  @Column({ type: 'bigint', name: 'imported_at', transformer: epochMs }) importedAt!: Date;
}
