import { DATABASE_KINDS, testDatabase, type TestDatabase } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataSource, DataManager, DEMAND_BUCKET_MS } from './index.js';

describe.each(DATABASE_KINDS)('warm-pool sizing on %s', (kind) => {
  let db: TestDatabase;
  /** A second connection pool on the same database: another api replica. */
  let replica: DataManager;
  const START = Date.parse('2026-01-01T00:00:00Z');
  let clock = new Date(START);
  const at = (ms: number) => (clock = new Date(START + ms));
  beforeAll(async () => {
    db = await testDatabase(kind, () => clock);
    const dataSource = createDataSource({ url: db.url, poolSize: 5, migrateOnStart: false });
    await dataSource.initialize();
    replica = new DataManager(dataSource, () => clock);
  });
  afterAll(async () => {
    await replica?.close();
    await db?.close();
  });

  it('keeps one override per lesson, seen by every replica: set, replace, clear', async () => {
    expect(await db.data.poolSizing.overrides()).toEqual([]);
    expect(await db.data.poolSizing.setOverride('alpha', 3)).toEqual({ lessonSlug: 'alpha', size: 3, updatedAt: clock });
    expect(await replica.poolSizing.setOverride('alpha', 0, 120)).toEqual({ lessonSlug: 'alpha', size: 0, maxAge: 120, updatedAt: clock });
    await db.data.poolSizing.setOverride('beta', 5);
    expect((await replica.poolSizing.overrides()).map((o) => [o.lessonSlug, o.size, o.maxAge])).toEqual([
      ['alpha', 0, 120],
      ['beta', 5, undefined],
    ]);
    expect(await db.data.poolSizing.clearOverride('alpha')).toBe(true);
    expect(await db.data.poolSizing.clearOverride('alpha')).toBe(false);
    expect(await replica.poolSizing.override('alpha')).toBeUndefined();
  });

  it('counts every hit and miss from concurrent replicas, per lesson and window, and forgets old buckets', async () => {
    at(0);
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? replica : db.data).poolSizing.recordDemand('alpha', i % 3 === 0 ? 'hit' : 'miss')));
    await db.data.poolSizing.recordDemand('beta', 'hit');
    at(3 * DEMAND_BUCKET_MS + 5);
    await db.data.poolSizing.recordDemand('alpha', 'hit');
    expect(await db.data.poolSizing.demandSince(new Date(0))).toEqual(
      new Map([
        ['alpha', { hits: 5, misses: 8 }],
        ['beta', { hits: 1, misses: 0 }],
      ]),
    );
    // A window starting inside the last bucket counts that whole bucket, and nothing older.
    expect(await db.data.poolSizing.demandSince(new Date(clock.getTime() - 1))).toEqual(new Map([['alpha', { hits: 1, misses: 0 }]]));
    expect(await db.data.poolSizing.pruneDemand(new Date(START + DEMAND_BUCKET_MS))).toBe(2);
    expect(await db.data.poolSizing.demandSince(new Date(0))).toEqual(new Map([['alpha', { hits: 1, misses: 0 }]]));
  });
});
