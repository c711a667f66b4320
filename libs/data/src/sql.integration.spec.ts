import { DATABASE_KINDS, makeImage, makeLesson, makeLiveEndpoint, makeNewLiveLesson, testDatabase, type TestDatabase } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageEntity, LessonEntity, LiveLessonEntity, LiveSessionEntity } from './entities/index.js';
import { fromJsonRows, fromRow, jsonRows, selectEntities, sqlRows, toColumns } from './sql.js';

describe.each(DATABASE_KINDS)('statements through DataSource.query on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await testDatabase(kind, () => new Date('2026-03-04T05:06:07.089Z'));
    await db.data.liveSessions.create({ id: 'sess-1', sourceIp: '127.0.0.9', persistent: true });
    await db.data.curriculum.insertImages([
      makeImage({ slug: 'vqfx', readiness: { type: 'ssh', command: 'show version', match: 'JUNOS' } }),
      makeImage({ slug: 'utility' }),
    ]);
    await db.data.curriculum.insertLessons([makeLesson({ slug: 'one', tags: ['a', 'b'] })]);
    await db.data.liveLessons.create(
      makeNewLiveLesson({
        id: 'll-1',
        sessionId: 'sess-1',
        endpoints: [
          makeLiveEndpoint({ name: 'vqfx1', position: 0, readiness: { type: 'ssh', command: 'x', match: 'y' } }),
          makeLiveEndpoint({ name: 'linux1', position: 1 }),
        ],
      }),
    );
    await db.data.liveLessons.updateStatus('ll-1', 'BOOTING', { hosts: new Map([['linux1', '10.0.0.7']]) });
    await db.data.liveLessons.recordEndpointUp('ll-1', 'linux1');
    await db.data.liveLessons.markFailed('ll-1', 'a reason');
  });
  afterAll(() => db?.close());

  it.each([
    ['live lessons', LiveLessonEntity, 'id = :id', { id: 'll-1' }],
    ['live sessions', LiveSessionEntity, 'id = :id', { id: 'sess-1' }],
    ['images', ImageEntity, 'slug IN (:...slugs)', { slugs: ['vqfx', 'utility'] }],
    ['lessons', LessonEntity, 'slug = :slug', { slug: 'one' }],
  ] as const)('hydrates %s exactly as the query builder does (types, transformers, nulls)', async (_name, entity, where, parameters) => {
    const builder: object[] = await db.data.dataSource.manager.find(entity);
    const selected: object[] = await selectEntities<object>(db.data.dataSource, entity, where, parameters);
    expect(selected.length).toBeGreaterThan(0);
    const byKey = (rows: object[]) => rows.map((row) => ({ ...row })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(byKey(selected)).toEqual(byKey(builder));
  });

  it.each([
    ['live lessons', LiveLessonEntity, 'id'],
    ['live sessions', LiveSessionEntity, 'id'],
    ['images', ImageEntity, 'slug'],
    ['lessons', LessonEntity, 'slug'],
  ] as const)('answers %s as JSON rows (another statement’s answer) exactly as the query builder reads them, in order', async (_name, entity, key) => {
    const { dataSource } = db.data;
    const builder: object[] = await dataSource.manager.find(entity, { order: { [key]: 'DESC' } });
    const [row] = await sqlRows<{ rows: string }>(dataSource, `SELECT ${jsonRows(dataSource, entity, '1 = 1', `${key} DESC`)} AS rows`, {});
    const answered: object[] = fromJsonRows<object>(dataSource, entity, row.rows);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.map((one) => ({ ...one }))).toEqual(builder.map((one) => ({ ...one })));
    const [none] = await sqlRows<{ rows: string }>(dataSource, `SELECT ${jsonRows(dataSource, entity, `${key} = :key`, key)} AS rows`, { key: 'nope' });
    expect(fromJsonRows(dataSource, entity, none.rows)).toEqual([]);
  });

  it('finds nothing for a WHERE that matches nothing', async () => {
    expect(await selectEntities(db.data.dataSource, LiveLessonEntity, 'id = :id', { id: 'nope' })).toEqual([]);
  });

  it("reads a row's columns and writes an entity's properties through the entity's own transformers, as the repositories do", async () => {
    const { dataSource } = db.data;
    const [stored] = await dataSource.manager.findBy(LiveLessonEntity, { id: 'll-1' });
    const [row] = await sqlRows<Record<string, unknown>>(
      dataSource,
      'SELECT id, error, phase_times, updated_at, delete_requested_at, 1 AS other FROM live_lessons WHERE id = :id',
      {
        id: 'll-1',
      },
    );
    expect(fromRow(dataSource, LiveLessonEntity, row)).toEqual({
      id: 'll-1',
      error: true,
      phaseTimes: stored.phaseTimes,
      updatedAt: stored.updatedAt,
      deleteRequestedAt: null,
    });
    const session = {
      id: 'sess-2',
      sourceIp: '127.0.0.10',
      persistent: true,
      createdAt: new Date(1_700_000_000_123),
      lastActiveAt: new Date(1_700_000_000_456),
    };
    const columns = toColumns(dataSource, LiveSessionEntity, session);
    expect(Object.keys(columns)).toEqual(['id', 'source_ip', 'persistent', 'created_at', 'last_active_at']);
    await sqlRows(
      dataSource,
      `INSERT INTO live_sessions (${Object.keys(columns).join(', ')}) VALUES (${Object.keys(columns)
        .map((c) => `:${c}`)
        .join(', ')})`,
      columns,
    );
    expect(await dataSource.manager.findOneBy(LiveSessionEntity, { id: 'sess-2' })).toEqual(session);
    expect(() => toColumns(dataSource, LiveSessionEntity, { nope: 1 } as object)).toThrow(/nope is not a column/);
  });

  it('expands a list parameter, leaves a ::cast alone and refuses a parameter without a value', async () => {
    const { dataSource } = db.data;
    const cast = kind === 'postgres' ? '::text' : '';
    const rows = await sqlRows<{ id: string }>(dataSource, `SELECT id${cast} AS id FROM live_sessions WHERE id IN (:...ids) ORDER BY id`, {
      ids: ['sess-1', 'sess-2', 'none'],
    });
    expect(rows.map((row) => row.id)).toEqual(['sess-1', 'sess-2']);
    await expect(sqlRows(dataSource, 'SELECT id FROM live_sessions WHERE id = :id', {})).rejects.toThrow(/No value for the parameter :id/);
  });

  it('binds numbers as parameters: the SQL text is the same for every value, so one prepared statement serves them', async () => {
    const dataSource = db.data.dataSource;
    const texts: string[] = [];
    const query = dataSource.query.bind(dataSource);
    dataSource.query = ((sql: string, values?: unknown[]) => (texts.push(sql), query(sql, values))) as typeof dataSource.query;
    try {
      const count = async (n: number) =>
        Number((await sqlRows<{ n: number | string }>(dataSource, 'SELECT COUNT(*) AS n FROM live_lessons WHERE created_at < :n', { n }))[0]?.n);
      expect([await count(0), await count(Date.parse('2030-01-01')), await count(Number.MAX_SAFE_INTEGER)]).toEqual([0, 1, 1]);
    } finally {
      dataSource.query = query;
    }
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]).not.toMatch(/\d{4}/);
  });
});
