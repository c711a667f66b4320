import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMs, flag } from '../transformers.js';

@Entity({ name: 'live_sessions' })
export class LiveSessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id!: string;
  @Index('idx_live_sessions_source_ip')
  @Column({ type: 'varchar', length: 64, name: 'source_ip' })
  sourceIp!: string;
  @Column({ type: 'integer', transformer: flag }) persistent!: boolean;
  @Column({ type: 'bigint', name: 'created_at', transformer: epochMs }) createdAt!: Date;
  @Column({ type: 'bigint', name: 'last_active_at', transformer: epochMs }) lastActiveAt!: Date;
}
