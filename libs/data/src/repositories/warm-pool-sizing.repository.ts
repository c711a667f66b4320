import { LessThan, type DataSource } from 'typeorm';
import { WarmPoolDemandEntity, WarmPoolOverrideEntity } from '../entities/index.js';
import { selectEntities, sqlRows } from '../sql.js';

/** Demand is counted per lesson and bucket of this many milliseconds. */
export const DEMAND_BUCKET_MS = 60_000;

/** An operator's size for a pool (`antictl pool resize`). */
export interface PoolOverride {
  lessonSlug: string;
  size: number;
  /** Seconds; undefined: the config's. */
  maxAge?: number;
  updatedAt: Date;
}

/** Requests for a pooled lesson in a window: claims of a warm member, and misses (built from nothing). */
export interface PoolDemand {
  hits: number;
  misses: number;
}

const toOverride = (row: WarmPoolOverrideEntity): PoolOverride => ({
  lessonSlug: row.lessonSlug,
  size: row.size,
  ...(row.maxAge === null ? {} : { maxAge: row.maxAge }),
  updatedAt: row.updatedAt,
});

/**
 * What sizes the warm pools besides the config: operators' overrides (one row per lesson, read by every
 * scheduler replica and the api) and the demand per lesson and minute, which the api counts and the
 * scheduler sizes adaptive pools from. Counting is one upsert that adds to the bucket's row, so
 * concurrent api replicas never lose a count.
 */
export class WarmPoolSizingRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly now: () => Date,
  ) {}

  async overrides(): Promise<PoolOverride[]> {
    return (await this.dataSource.manager.find(WarmPoolOverrideEntity, { order: { lessonSlug: 'ASC' } })).map(toOverride);
  }

  async override(lessonSlug: string): Promise<PoolOverride | undefined> {
    const [row] = await selectEntities(this.dataSource, WarmPoolOverrideEntity, 'lesson_slug = :lessonSlug', { lessonSlug });
    return row ? toOverride(row) : undefined;
  }

  /** Sets (or replaces) the size of a lesson's pool; `maxAge` undefined: the config's. */
  async setOverride(lessonSlug: string, size: number, maxAge?: number): Promise<PoolOverride> {
    await this.dataSource.manager.upsert(WarmPoolOverrideEntity, { lessonSlug, size, maxAge: maxAge ?? null, updatedAt: this.now() }, ['lessonSlug']);
    return (await this.override(lessonSlug))!;
  }

  /** Back to the config's size; false when there was no override. */
  async clearOverride(lessonSlug: string): Promise<boolean> {
    return ((await this.dataSource.manager.delete(WarmPoolOverrideEntity, { lessonSlug })).affected ?? 0) > 0;
  }

  /** Counts one request for a pooled lesson in the current bucket. */
  async recordDemand(lessonSlug: string, result: 'hit' | 'miss'): Promise<void> {
    const at = this.now().getTime();
    await sqlRows(
      this.dataSource,
      'INSERT INTO warm_pool_demand (lesson_slug, bucket_start, hits, misses) VALUES (:lessonSlug, :bucketStart, :hits, :misses) ' +
        'ON CONFLICT (lesson_slug, bucket_start) DO UPDATE SET hits = warm_pool_demand.hits + excluded.hits, misses = warm_pool_demand.misses + excluded.misses',
      { lessonSlug, bucketStart: at - (at % DEMAND_BUCKET_MS), hits: result === 'hit' ? 1 : 0, misses: result === 'miss' ? 1 : 0 },
    );
  }

  /** Demand per lesson in the buckets that start at or after `since` (the bucket holding `since` included). */
  async demandSince(since: Date): Promise<Map<string, PoolDemand>> {
    const from = since.getTime() - (since.getTime() % DEMAND_BUCKET_MS);
    const rows = await this.dataSource
      .createQueryBuilder(WarmPoolDemandEntity, 'd')
      .select('d.lesson_slug', 'slug')
      .addSelect('SUM(d.hits)', 'hits')
      .addSelect('SUM(d.misses)', 'misses')
      .where('d.bucket_start >= :from', { from })
      .groupBy('d.lesson_slug')
      .getRawMany<{ slug: string; hits: string | number; misses: string | number }>();
    return new Map(rows.map((row) => [row.slug, { hits: Number(row.hits), misses: Number(row.misses) }]));
  }

  /** Forgets the buckets that start before `before`; returns how many. */
  async pruneDemand(before: Date): Promise<number> {
    return (await this.dataSource.manager.delete(WarmPoolDemandEntity, { bucketStart: LessThan(String(before.getTime())) })).affected ?? 0;
  }
}
