import { LiveLessonStatus } from '@antidote/contracts';
import { DataManager, logStatements, type StatementLog } from '@antidote/data';
import { healthcheckerService } from '@antidote/healthchecker';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { memorySpans } from '@antidote/runtime';
import { schedulerService } from '@antidote/scheduler';
import { DATABASE_KINDS, startTestPlatform, type TestPlatform } from '@antidote/testing';
import { trace } from '@opentelemetry/api';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiService } from './api.definition.js';

type App = 'api' | 'scheduler' | 'healthchecker';
/**
 * The written budget of database statements (a transaction's BEGIN and COMMIT counted) for one live
 * lesson of three endpoints, from the learner's POST to READY, per app and in all. The curriculum (the
 * lesson, its images) and the operators' pool sizes are held in memory by the apps that need them; a live
 * lesson's endpoints (their addresses and up times too) are on its row. Where they go:
 * - api: the session's activity with its labs (its existence with them), the address's new-lab token; then
 *   one transaction: the queue's lock, its standing, the row (its endpoints on it), its ticket.
 * - scheduler: the row (checked, and worked from), the claim (telling whether the row changed since and
 *   its admission ticket), BOOTING with the endpoints' addresses, CONFIGURATION, READY with the configured
 *   stage and the claim released (answering the endpoints' up times), the start's record.
 * - healthchecker: the row, then per endpoint its up time with the healthy count, one statement (as each
 *   is found up: a healthchecker killed mid-boot is succeeded by one that resumes from the row).
 */
const BUDGET: Record<App | 'total', number> = { api: 8, scheduler: 6, healthchecker: 4, total: 18 };

const traceIdOfContext = () => trace.getActiveSpan()?.spanContext().traceId;
/** The process's one span exporter serves both databases' runs: each run's traces have ids of their own. */
const TRACE_PREFIX: Record<(typeof DATABASE_KINDS)[number], string> = { sqlite: 'a', postgres: 'b' };

/**
 * What one live lesson costs the database: the api, the scheduler and the healthchecker in process on
 * a real database, each DataSource's statements logged with the trace they run in; the learner's POST
 * carries a trace id, so every statement made for that lesson — the api's, the scheduler's over NATS,
 * the healthchecker's — is told apart from the apps' periodic work. Printed, one per line, and held to
 * the budget above.
 */
describe.each(DATABASE_KINDS)('database statements of one live lesson, request to READY, on %s', (kind) => {
  let p: TestPlatform<App, KubeSim>;
  let api = '';
  let spans: InMemorySpanExporter;

  beforeAll(async () => {
    spans = await memorySpans();
    p = await startTestPlatform(kind, {
      cluster: startKubeSim,
      services: { healthchecker: healthcheckerService, scheduler: schedulerService, api: apiService },
      overrides: { tracing: { exporter: 'memory' }, httpPort: 0, api: { host: '127.0.0.1' } },
    });
    api = p.running('api')[0].url;
  });
  afterAll(() => p?.stop());

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
    (
      await fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    ).json() as Promise<Record<string, string>>;

  /** A new learner's live lesson to READY under the trace `traceId`; resolves once the scheduler's work on it has ended. */
  async function lessonToReady(traceId: string): Promise<void> {
    const session = await post('/exp/livesession', {});
    const { id } = await post(
      '/exp/livelesson',
      { lessonSlug: 'network-automation', sessionId: session.ID, lessonStage: 0 },
      { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    );
    expect(id).toEqual(expect.any(String));
    await expect.poll(async () => (await p.data.liveLessons.find(id))?.status, { timeout: 60_000 }).toBe(LiveLessonStatus.READY);
    // The create span ends once the operation has written READY: nothing of the lesson's own work is left.
    await expect
      .poll(() => spans.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId && span.name === 'live lesson create').length, {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(1);
    await expect.poll(() => p.eventsOf(id).at(-1)?.status, { timeout: 30_000 }).toBe(LiveLessonStatus.READY);
    // Its start was recorded whole (every endpoint's up time on the row before READY). Polled: should a lapsed
    // claim hand the create to a re-drive (a very loaded machine), its record follows the first span's end.
    await expect.poll(async () => (await p.data.starts.recent(10)).map((start) => start.liveLessonId), { timeout: 30_000 }).toContain(id);
  }

  it('counts every statement each app sends for one lesson, and keeps to the budget', { timeout: 180_000 }, async () => {
    // The first lesson warms what the apps hold in memory (the curriculum) — counted apart.
    await lessonToReady(`${TRACE_PREFIX[kind]}1f92f3577b34da6a3ce929d0e0e4736`);
    const logs = Object.fromEntries(
      (['api', 'scheduler', 'healthchecker'] as const).map((app) => [app, logStatements(p.running(app)[0].app.get(DataManager).dataSource, traceIdOfContext)]),
    ) as Record<App, StatementLog>;
    const traceId = `${TRACE_PREFIX[kind]}4f92f3577b34da6a3ce929d0e0e4736`;
    await lessonToReady(traceId);
    for (const log of Object.values(logs)) log.stop();

    const ofLesson = (app: App) => logs[app].statements.filter((statement) => statement.tag === traceId);
    const counts = Object.fromEntries((['api', 'scheduler', 'healthchecker'] as const).map((app) => [app, ofLesson(app).length])) as Record<App, number>;
    const total = counts.api + counts.scheduler + counts.healthchecker;
    const lines = [`database statements of one live lesson (network-automation), POST to READY, on ${kind}: ${total} (budget ${BUDGET.total})`];
    for (const app of ['api', 'scheduler', 'healthchecker'] as const) {
      lines.push(
        `  ${app}: ${counts[app]} (budget ${BUDGET[app]})`,
        ...ofLesson(app).map((statement, n) => `    ${String(n + 1).padStart(2)} ${statement.sql.replace(/\s+/g, ' ').slice(0, 220)}`),
      );
      const other = logs[app].statements.filter((statement) => statement.tag !== traceId);
      if (other.length > 0)
        lines.push(
          `    meanwhile, not of this lesson: ${other.length}`,
          ...other.map((statement) => `     - [${statement.tag ?? 'no trace'}] ${statement.sql.replace(/\s+/g, ' ').slice(0, 160)}`),
        );
    }
    console.log(lines.join('\n'));
    for (const app of ['api', 'scheduler', 'healthchecker'] as const) expect(counts[app], `${app}'s statements`).toBeLessThanOrEqual(BUDGET[app]);
    expect(total).toBeLessThanOrEqual(BUDGET.total);
  });
});
