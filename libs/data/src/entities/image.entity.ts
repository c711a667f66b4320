import type { ReadinessCheck } from '@antidote/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { flag, json } from '../transformers.js';

@Entity({ name: 'images' })
export class ImageEntity {
  @PrimaryColumn({ type: 'varchar', length: 253 }) slug!: string;
  @Column({ type: 'text' }) description!: string;
  @Column({ type: 'varchar', length: 16 }) flavor!: string;
  @Column({ type: 'integer', name: 'enable_forwarding', transformer: flag }) enableForwarding!: boolean;
  @Column({ type: 'text', name: 'network_interfaces', transformer: json }) networkInterfaces!: string[];
  @Column({ type: 'text', name: 'ssh_user' }) sshUser!: string;
  @Column({ type: 'text', name: 'ssh_password' }) sshPassword!: string;
  @Column({ type: 'text', name: 'config_user' }) configUser!: string;
  @Column({ type: 'text', name: 'config_password' }) configPassword!: string;
  /** JSON; null when the image declares no readiness check. */
  @Column({ type: 'text', nullable: true, transformer: json }) readiness!: ReadinessCheck | null;
}
