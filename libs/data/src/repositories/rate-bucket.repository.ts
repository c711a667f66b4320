import type { DataSource } from 'typeorm';
import { sqlRows } from '../sql.js';

/** A token bucket: up to `count` tokens, refilled continuously at `count` per `perSeconds`. */
export interface BucketRate {
  count: number;
  perSeconds: number;
}

/**
 * Token buckets in the database (`admission_buckets`), so every api replica takes from the same one: a
 * take is one statement that refills the bucket for the time passed and takes a token only when one is
 * there. A bucket untouched for its whole window is full again, so old rows can be forgotten.
 */
export class RateBucketRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly now: () => Date,
  ) {}

  /** Takes a token from `bucket`: 0 when taken, else the seconds until one is there (nothing taken). */
  async take(bucket: string, rate: BucketRate): Promise<number> {
    if (rate.count <= 0) return 0;
    const now = this.now().getTime();
    const perMs = rate.count / (rate.perSeconds * 1000);
    const least = this.dataSource.options.type === 'postgres' ? 'LEAST' : 'MIN';
    const refilled = `${least}(CAST(:count AS double precision), admission_buckets.tokens + (:now - admission_buckets.updated_at) * CAST(:perMs AS double precision))`;
    const taken = await sqlRows<{ tokens: number }>(
      this.dataSource,
      `INSERT INTO admission_buckets (bucket, tokens, updated_at) VALUES (:bucket, CAST(:count AS double precision) - 1, :now)
       ON CONFLICT (bucket) DO UPDATE SET tokens = ${refilled} - 1, updated_at = :now WHERE ${refilled} >= 1 RETURNING tokens`,
      { bucket, count: rate.count, now, perMs },
    );
    if (taken.length > 0) return 0;
    const [row] = await sqlRows<{ tokens: number | string; updated_at: number | string }>(
      this.dataSource,
      'SELECT tokens, updated_at FROM admission_buckets WHERE bucket = :bucket',
      { bucket },
    );
    const tokens = row ? Math.min(rate.count, Number(row.tokens) + (now - Number(row.updated_at)) * perMs) : rate.count;
    return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
  }

  /** Forgets buckets untouched since `before` (full again by then). */
  async forget(before: Date): Promise<void> {
    await sqlRows(this.dataSource, 'DELETE FROM admission_buckets WHERE updated_at < :before RETURNING bucket', { before: before.getTime() });
  }
}
