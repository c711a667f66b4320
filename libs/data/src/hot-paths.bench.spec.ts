import { LiveLessonStatus, type PhaseTimes } from '@antidote/contracts';
import { DATABASE_KINDS, makeLesson, makeLiveEndpoint, makeNewLiveLesson, testDatabase, type TestDatabase } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LessonEntity, LiveLessonEntity } from './entities/index.js';
import { logStatements } from './statement-log.js';

const CALLS = Number(process.env.BENCH_HOT_PATH_CALLS ?? 2000);
const STATE = {
  id: true,
  sessionId: true,
  lessonSlug: true,
  status: true,
  error: true,
  failureReason: true,
  currentStage: true,
  healthyTests: true,
  totalTests: true,
  phaseTimes: true,
  pool: true,
  updatedAt: true,
  estimatedReadyAt: true,
} as const;

interface Cost {
  cpuUs: number;
  wallUs: number;
  statements: number;
}

/**
 * What the hot paths' own SQL (`DataSource.query` in the repository that owns the table) buys over the
 * same work through TypeORM's repositories alone: CPU and wall time per call in this process and the
 * statements sent, on each database. Figures only.
 */
describe.each(DATABASE_KINDS)('hot paths of the live lesson rows on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await testDatabase(kind);
    await db.data.liveSessions.create({ id: 'sess-b', sourceIp: '127.0.0.11' });
    await db.data.curriculum.insertLessons([makeLesson({ slug: 'bench-lesson' })]);
    await db.data.liveLessons.create(
      makeNewLiveLesson({
        id: 'll-b',
        sessionId: 'sess-b',
        endpoints: [makeLiveEndpoint({ name: 'a', position: 0 }), makeLiveEndpoint({ name: 'b', position: 1 })],
      }),
    );
  });
  afterAll(() => db?.close());

  async function cost(call: () => Promise<unknown>): Promise<Cost> {
    for (let i = 0; i < 100; i++) await call();
    const log = logStatements(db.data.dataSource);
    const [cpu, wall] = [process.cpuUsage(), process.hrtime.bigint()];
    for (let i = 0; i < CALLS; i++) await call();
    const used = process.cpuUsage(cpu);
    const wallUs = Number(process.hrtime.bigint() - wall) / 1000;
    log.stop();
    return { cpuUs: (used.user + used.system) / CALLS, wallUs: wallUs / CALLS, statements: log.statements.length / CALLS };
  }

  it(`prints the cost of ${CALLS} calls of each hot path, its SQL beside the repositories' way`, async () => {
    const { data } = db;
    const manager = data.dataSource.manager;
    let status = 0;
    const statuses = [LiveLessonStatus.BOOTING, LiveLessonStatus.CONFIGURATION, LiveLessonStatus.READY];
    const next = () => statuses[status++ % statuses.length];
    const paths: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      ['state read (findState)', () => data.liveLessons.findState('ll-b'), () => manager.findOne(LiveLessonEntity, { select: STATE, where: { id: 'll-b' } })],
      ['live lesson read (find)', () => data.liveLessons.find('ll-b'), () => manager.findOneBy(LiveLessonEntity, { id: 'll-b' })],
      ['lesson read (findLesson)', () => data.curriculum.findLesson('bench-lesson'), () => manager.findOneBy(LessonEntity, { slug: 'bench-lesson' })],
      [
        'status write (updateStatus)',
        () => data.liveLessons.updateStatus('ll-b', next()),
        // The repositories' way: SQLite has no RETURNING in the query builder, and the phase time is merged in code.
        async () => {
          const { phaseTimes } = await manager.findOneOrFail(LiveLessonEntity, { select: { id: true, phaseTimes: true }, where: { id: 'll-b' } });
          const at = new Date();
          const merged: PhaseTimes = { ...phaseTimes, bootingAt: at.toISOString() };
          await manager.update(LiveLessonEntity, { id: 'll-b' }, { status: next(), updatedAt: at, phaseTimes: merged });
          return manager.findOne(LiveLessonEntity, { select: STATE, where: { id: 'll-b' } });
        },
      ],
    ];
    const lines = [`bench data hot paths on ${kind}: ${CALLS} calls each, per call in this process (µs), statements per call`];
    lines.push(
      `  ${'path'.padEnd(30)} ${'sql cpu'.padStart(8)} ${'wall'.padStart(7)} ${'stmts'.padStart(6)}   ${'repo cpu'.padStart(8)} ${'wall'.padStart(7)} ${'stmts'.padStart(6)}`,
    );
    for (const [name, sql, repository] of paths) {
      const [own, theirs] = [await cost(sql), await cost(repository)];
      const figures = (c: Cost) => `${c.cpuUs.toFixed(0).padStart(8)} ${c.wallUs.toFixed(0).padStart(7)} ${c.statements.toFixed(1).padStart(6)}`;
      lines.push(`  ${name.padEnd(30)} ${figures(own)}   ${figures(theirs)}`);
      expect(own.statements).toBeLessThanOrEqual(theirs.statements);
    }
    console.log(lines.join('\n'));
  });
});
