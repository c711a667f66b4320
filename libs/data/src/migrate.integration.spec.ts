import { DATABASE_KINDS, makeLiveEndpoint, makeNewLiveLesson, testDatabase, testDatabaseUrl } from '@antidote/testing';
import { describe, expect, it } from 'vitest';
import { createDataSource, migrate, revertAllMigrations, runMigrations } from './index.js';

const ALL = [
  'InitialSchema1764670000000',
  'WarmPools1764850000000',
  'AddReadinessChecks1796396031608',
  'WarmPoolSizing1796406814973',
  'BootTimes1796410000000',
  'AdmissionQueue1796500000000',
  'EndpointsOnTheRow1796600000000',
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

  it('moves existing endpoints onto their rows and back (their addresses and up times with them)', async () => {
    const db = await testDatabase(kind, () => new Date(1_796_000_000_000));
    try {
      const lessons = db.data.liveLessons;
      const endpoints = [
        makeLiveEndpoint({ name: 'vqfx1', position: 0, readiness: { type: 'ssh', command: 'show version', match: 'JUNOS' } }),
        makeLiveEndpoint({ name: 'linux1', image: 'utility', position: 1, ports: [22, 8080] }),
      ];
      await lessons.create(makeNewLiveLesson({ id: 'moved', sessionId: 'moved', endpoints }));
      await lessons.create(makeNewLiveLesson({ id: 'none', sessionId: 'none', endpoints: [] }));
      await lessons.updateStatus('moved', 'BOOTING', {
        hosts: new Map([
          ['vqfx1', '10.0.0.1'],
          ['linux1', '10.0.0.2'],
        ]),
      });
      await lessons.recordEndpointUp('moved', 'linux1', new Date(1_796_000_004_000));
      const before = await lessons.list();
      expect(before.find((lesson) => lesson.id === 'moved')?.endpoints.map((endpoint) => [endpoint.host, endpoint.upAt?.getTime()])).toEqual([
        ['10.0.0.1', undefined],
        ['10.0.0.2', 1_796_000_004_000],
      ]);
      const { dataSource } = db.data;
      // Back to the table of endpoints: one row each, with what the lesson's row held.
      await dataSource.undoLastMigration({ transaction: 'each' });
      const rows = await dataSource.query<Record<string, unknown>[]>(
        'SELECT live_lesson_id, name, position, host, up_at, ports, readiness FROM live_endpoints ORDER BY position',
      );
      expect(rows.map((row) => ({ ...row, position: Number(row.position), up_at: row.up_at === null ? null : Number(row.up_at) }))).toEqual([
        {
          live_lesson_id: 'moved',
          name: 'vqfx1',
          position: 0,
          host: '10.0.0.1',
          up_at: null,
          ports: '[22]',
          readiness: JSON.stringify(endpoints[0].readiness),
        },
        { live_lesson_id: 'moved', name: 'linux1', position: 1, host: '10.0.0.2', up_at: 1_796_000_004_000, ports: '[22,8080]', readiness: null },
      ]);
      // And onto the rows again: every lesson reads as it did.
      expect(await runMigrations(dataSource)).toEqual(['EndpointsOnTheRow1796600000000']);
      expect(await lessons.list()).toEqual(before);
    } finally {
      await db.close();
    }
  });
});
