import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, QueryRunner } from 'typeorm';
import { busyDeadline, isSqliteBusy } from './sqlite-busy-wait.js';
import { TransactionGate } from './sqlite-transaction-gate.js';

export interface BusyRetry {
  /** Whether a refused attempt may be made again (not inside a transaction). */
  canRetry?: () => boolean;
  /**
   * When to stop (`busyDeadline()` when the work first had to wait: refused, or held at the transaction
   * gate), so time spent in line behind other waiters counts (a line of waiters each given its own 10 s
   * made the last wait minutes, and a learner's request hang instead of being answered 503).
   */
  giveUpAt?: number;
}

/** Runs `attempt` again while it fails with SQLITE_BUSY, after short jittered pauses, until `giveUpAt`; past it, one attempt. */
export async function retryWhileBusy<T>(attempt: () => Promise<T>, { canRetry = () => true, giveUpAt = busyDeadline() }: BusyRetry = {}): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusy(error) || !canRetry() || Date.now() >= giveUpAt) throw error;
      await sleep(Math.random() * Math.min(50, 2 ** tries));
    }
  }
}

/**
 * SQLite's lock waits off the event loop. better-sqlite3 is synchronous: with a busy timeout, a statement
 * that meets another connection's write lock (the apps under `antictl up` share one file, and a
 * transaction holds the lock across its awaits) sleeps inside SQLite, and the whole process — every
 * request, every timer — stops with it, up to the timeout. So the connection waits for no lock (busy
 * timeout 0), and a statement refused with SQLITE_BUSY outside a transaction (it changed nothing) is run
 * again after a short pause, the event loop free meanwhile. Inside a transaction a statement is not run
 * again alone (SQLite asks for the transaction to be rolled back): `inTransaction` runs the whole
 * transaction again, as `runMigrations` does a migration. And while a transaction is open on the
 * connection, no statement from outside it runs inside it (`TransactionGate`).
 */
export function waitForLocksOffTheLoop(dataSource: DataSource): void {
  const driver = dataSource.driver as unknown as { createQueryRunner(mode: string): QueryRunner };
  const create = driver.createQueryRunner.bind(driver);
  const wrapped = new WeakSet<QueryRunner>();
  const gate = TransactionGate.attach(dataSource);
  // Statements waiting for the lock take turns: one asks SQLite again at a time, the next right after it
  // got through (not hundreds asking every few milliseconds during a burst). One whose bound passed while
  // it waited for its turn fails at once, without asking again: an attempt may wait at the transaction
  // gate for a turn of the event loop, and 2,000 such turns one after another kept the last learners of a
  // burst waiting for minutes (the 10,000-lesson run of 2026-12-07, evening).
  let line: Promise<unknown> = Promise.resolve();
  const inLine = <T>(giveUpAt: number, wait: () => Promise<T>, refused: Error): Promise<T> => {
    const turn = line.then(() => (Date.now() >= giveUpAt ? Promise.reject(refused) : wait()));
    line = turn.catch(() => undefined);
    return turn;
  };
  driver.createQueryRunner = (mode) => {
    const runner = create(mode);
    if (wrapped.has(runner)) return runner;
    wrapped.add(runner);
    gate.guard(runner);
    const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    const outsideTransaction = () => !runner.isTransactionActive;
    // One deadline per statement, from when it first had to wait (at the gate, or refused busy).
    const run = (args: unknown[], deadline?: number): Promise<unknown> =>
      query(...args).catch((error: unknown) => {
        if (!isSqliteBusy(error) || !outsideTransaction()) throw error;
        const giveUpAt = deadline ?? busyDeadline();
        return inLine(
          giveUpAt,
          () => retryWhileBusy(() => gate.pass(giveUpAt, () => query(...args)), { canRetry: outsideTransaction, giveUpAt }),
          error as Error,
        );
      });
    // No transaction held by another context (the common case): the statement is sent at once, with no
    // promise of its own before it.
    runner.query = ((...args: unknown[]) => {
      if (!gate.mustWait()) return run(args);
      const giveUpAt = busyDeadline();
      return gate.pass(giveUpAt, () => run(args, giveUpAt));
    }) as QueryRunner['query'];
    return runner;
  };
}
