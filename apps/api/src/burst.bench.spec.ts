import { fork } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { distribution, testDatabaseUrl, writeBenchReport } from '@antidote/testing';
import { expect, it } from 'vitest';
import { startApi } from '../test/api-fixture.js';
import { timeSqlite } from '../test/sqlite-timing.js';

/** Learners arriving at once, each a session then a lab (as the front-end asks for them). */
const LEARNERS = Number(process.env.BENCH_BURST_LEARNERS ?? 2000);
/** Learners per loopback address (a classroom behind one NAT address), within every per-client limit as shipped. */
const PER_ADDRESS = 20;
const PROCESSES = 4;
/** Another app's write transactions on the same SQLite file (0: none): how long each holds the write lock, and the pause between them. */
const WRITER_HOLD_MS = Number(process.env.BENCH_BURST_WRITER_HOLD_MS ?? 200);
const WRITER_GAP_MS = Number(process.env.BENCH_BURST_WRITER_GAP_MS ?? 100);
/** A learner's request with no answer after this long is counted unanswered (the scale bench's window). */
const TIMEOUT_MS = 60_000;

interface Outcome {
  ms: number;
  session?: number;
  lesson?: number;
  why?: string;
}
interface Reply {
  outcomes: Outcome[];
  refusals: Record<string, number>;
  firstRefusalMs: number[];
}

const spread = (values: number[]) => (values.length > 0 ? distribution(values) : { p50: NaN, p95: NaN, max: NaN });

const countBy = (values: string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
};

const addresses = Array.from({ length: LEARNERS }, (_, i) => {
  const room = Math.floor(i / PER_ADDRESS);
  return `127.60.${Math.floor(room / 250)}.${(room % 250) + 1}`;
});

function learnersFrom(api: string, share: string[]): Promise<Reply> {
  const child = fork(new URL('../test/burst-learners.worker.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<Reply>((resolve, reject) => {
    child.once('message', (reply) => resolve(reply as Reply));
    child.once('exit', (code) => reject(new Error(`a learner process exited (${code})`)));
    child.send({ api, slug: 'linux-basics', addresses: share, retry: true, timeoutMs: TIMEOUT_MS });
  }).finally(() => child.kill());
}

/** Another app's write transactions on the file until the returned function is called. */
async function competingWriter(path: string): Promise<() => Promise<number>> {
  if (WRITER_HOLD_MS <= 0) return () => Promise.resolve(0);
  const worker = new Worker(new URL('../test/sqlite-writer.worker.mjs', import.meta.url), {
    workerData: { path, holdMs: WRITER_HOLD_MS, gapMs: WRITER_GAP_MS },
  });
  await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
  // Stopped once: the worker answers its count, then ends (a second call answers the same count).
  let stopped: Promise<number> | undefined;
  return () =>
    (stopped ??= (async () => {
      const done = new Promise<{ transactions: number }>((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      const { transactions } = await done;
      await worker.terminate();
      return transactions;
    })());
}

/**
 * The api alone (real sockets, SQLite, a stand-in scheduler on NATS) taking LEARNERS learners at once
 * from PROCESSES processes, PER_ADDRESS to a loopback address, while another connection writes to the
 * same file as the scheduler does under `antictl up`. Prints the api's event-loop delay, its CPU, every
 * synchronous SQLite call it made (count, total, the slowest: a wait for the other writer's lock is one),
 * the answers by status and the learners' time to a lab id. Figures only; what is asserted is that every
 * learner was answered.
 */
it(`takes ${LEARNERS} learners at once on SQLite and prints where the api's time goes`, { timeout: 900_000 }, async () => {
  const database = await testDatabaseUrl('sqlite');
  const api = await startApi({ databaseUrl: database.url }, { scheduler: { maxLiveLessons: LEARNERS, maxQueued: LEARNERS } });
  const stopWriter = await competingWriter(database.url.slice('sqlite:'.length));
  const loop = monitorEventLoopDelay({ resolution: 10 });
  try {
    const sqlite = timeSqlite();
    const cpu = process.cpuUsage();
    loop.enable();
    const started = Date.now();
    const shares = Array.from({ length: PROCESSES }, (_, p) => addresses.filter((_, i) => Math.floor(i / PER_ADDRESS) % PROCESSES === p));
    const replies = await Promise.all(shares.map((share) => learnersFrom(api.url, share)));
    const seconds = (Date.now() - started) / 1000;
    loop.disable();
    const used = process.cpuUsage(cpu);
    const statements = sqlite.stop();
    const transactions = await stopWriter();
    const outcomes = replies.flatMap((reply) => reply.outcomes);
    const refusals: Record<string, number> = {};
    for (const reply of replies) for (const [status, count] of Object.entries(reply.refusals)) refusals[status] = (refusals[status] ?? 0) + count;
    const served = outcomes.filter((outcome) => outcome.lesson === 200);
    const unanswered = outcomes.filter((outcome) => outcome.why?.includes('unanswered'));
    const other = outcomes.filter((outcome) => outcome.lesson !== 200 && !outcome.why?.includes('unanswered'));
    const times = spread(served.map((outcome) => outcome.ms));
    const firstRefusal = spread(replies.flatMap((reply) => reply.firstRefusalMs));
    const ms = (value: number) => `${(value / 1e6).toFixed(0)}`;
    const figures = {
      learners: LEARNERS,
      writer: { holdMs: WRITER_HOLD_MS, gapMs: WRITER_GAP_MS, transactions },
      seconds,
      served: served.length,
      unanswered: unanswered.length,
      otherwise: Object.entries(countBy(other.map((outcome) => `${outcome.session ?? ''}/${outcome.lesson ?? ''} ${outcome.why ?? ''}`.slice(0, 120)))).map(
        ([why, count]) => `${count} × ${why}`,
      ),
      refusals,
      secondsToLab: { p50: times.p50 / 1000, p95: times.p95 / 1000, max: times.max / 1000 },
      firstRefusalMs: { p50: firstRefusal.p50, max: firstRefusal.max },
      loopDelayMs: { p50: Number(ms(loop.percentile(50))), p99: Number(ms(loop.percentile(99))), max: Number(ms(loop.max)) },
      cpuMs: Math.round((used.user + used.system) / 1000),
      sqlite: { ...statements, totalMs: Math.round(statements.totalMs) },
    };
    console.log(
      [
        `bench api burst: ${LEARNERS} learners at once (session + lab), ${PROCESSES} processes, ${PER_ADDRESS} per loopback address, SQLite, another writer holding the lock ${WRITER_HOLD_MS} ms every ${WRITER_HOLD_MS + WRITER_GAP_MS} ms`,
        `  ${served.length} served, ${unanswered.length} unanswered (${Object.entries(countBy(unanswered.map((outcome) => outcome.why!)))
          .map(([why, count]) => `${count} × ${why}`)
          .join(
            '; ',
          )}), ${other.length} otherwise (${figures.otherwise.join('; ') || '—'}); refusals waited out ${JSON.stringify(refusals)} (first refusal after p50 ${firstRefusal.p50} ms, max ${firstRefusal.max} ms)`,
        `  ${seconds.toFixed(1)} s; seconds to a lab id p50 ${figures.secondsToLab.p50}, p95 ${figures.secondsToLab.p95}, max ${figures.secondsToLab.max}`,
        `  api event-loop delay p50 ${figures.loopDelayMs.p50} / p99 ${figures.loopDelayMs.p99} / max ${figures.loopDelayMs.max} ms; api CPU ${figures.cpuMs} ms (${(figures.cpuMs / LEARNERS).toFixed(1)} ms per learner)`,
        `  SQLite calls on the event loop: ${statements.count}, ${figures.sqlite.totalMs} ms in all, ${statements.over100Ms} over 100 ms; slowest ${statements.slowest.map((s) => `${s.ms} ms ${s.sql}`).join(' | ')}`,
      ].join('\n'),
    );
    writeBenchReport('api-burst', figures);
    expect(unanswered.map((outcome) => outcome.why)).toEqual([]);
  } finally {
    await stopWriter().catch(() => 0);
    await api.stop();
    database.cleanup();
  }
});
