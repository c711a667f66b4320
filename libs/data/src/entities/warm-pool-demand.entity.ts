import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Requests for one pooled lesson in one time bucket: claims (hits) and misses, the demand adaptive pools are sized from. */
@Entity({ name: 'warm_pool_demand' })
export class WarmPoolDemandEntity {
  @PrimaryColumn({ type: 'varchar', length: 253, name: 'lesson_slug' }) lessonSlug!: string;
  /** Start of the bucket, epoch milliseconds. */
  @PrimaryColumn({ type: 'bigint', name: 'bucket_start' }) bucketStart!: string;
  @Column({ type: 'integer' }) hits!: number;
  @Column({ type: 'integer' }) misses!: number;
}
