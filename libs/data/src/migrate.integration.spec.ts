import { DATABASE_KINDS, testDatabaseUrl } from '@antidote/testing';
import { describe, expect, it } from 'vitest';
import { createDataSource, migrate, revertAllMigrations, runMigrations } from './index.js';

const ALL = [
  'InitialSchema1764670000000',
  'WarmPools1764850000000',
  'AddReadinessChecks1796396031608',
  'WarmPoolSizing1796406814973',
  'BootTimes1796410000000',
  'AdmissionQueue1796500000000',
];

describe.each(DATABASE_KINDS)('migrations on %s', (kind) => {
  it('apply from empty, are idempotent, and revert completely', async () => {
    const { url, cleanup } = await testDatabaseUrl(kind);
    expect(await migrate({ database: { url, poolSize: 2, migrateOnStart: false } })).toEqual(ALL);
    const dataSource = createDataSource({ url, poolSize: 2, migrateOnStart: false });
    await dataSource.initialize();
    try {
      expect(await runMigrations(dataSource)).toEqual([]);
      const tables = async (): Promise<string[]> => {
        const runner = dataSource.createQueryRunner();
        try {
          const found = await runner.getTables([
            'live_lessons',
            'live_endpoints',
            'live_sessions',
            'lessons',
            'images',
            'collections',
            'curriculum',
            'warm_pool_overrides',
            'warm_pool_demand',
            'lesson_starts',
            'admission_tickets',
            'admission_state',
            'admission_buckets',
          ]);
          return found.map((table) => table.name.split('.').pop()!);
        } finally {
          await runner.release();
        }
      };
      expect((await tables()).sort()).toEqual([
        'admission_buckets',
        'admission_state',
        'admission_tickets',
        'collections',
        'curriculum',
        'images',
        'lesson_starts',
        'lessons',
        'live_endpoints',
        'live_lessons',
        'live_sessions',
        'warm_pool_demand',
        'warm_pool_overrides',
      ]);
      expect(await revertAllMigrations(dataSource)).toBe(ALL.length);
      expect(await tables()).toEqual([]);
      expect(await runMigrations(dataSource)).toEqual(ALL);
    } finally {
      await dataSource.destroy();
      cleanup();
    }
  });
});
