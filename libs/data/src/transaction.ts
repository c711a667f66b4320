import type { DataSource, EntityManager } from 'typeorm';
import { retryWhileBusy } from './sqlite-busy.js';
import { busyDeadline } from './sqlite-busy-wait.js';
import { TransactionGate } from './sqlite-transaction-gate.js';

/**
 * `dataSource.transaction`, safe under concurrency on SQLite. PostgreSQL takes a pooled connection per
 * transaction and runs them in parallel. On SQLite:
 * - better-sqlite3 is one connection, and two interleaved transactions on it fail ("Transaction is not
 *   started yet"), so within a process they run one after another: each holds the transaction gate;
 * - another process on the same file (the apps under `npm start`) may write between this transaction's
 *   read and its write, or hold the write lock; SQLite then answers SQLITE_BUSY at once (no connection
 *   waits for a lock inside SQLite: waitForLocksOffTheLoop) and rolls back — the transaction is run
 *   again, after a short jittered pause, until SQLITE_BUSY_WAIT_MS after it was asked for, the wait at
 *   the gate included (then it fails as the database being unavailable, and the api answers 503 with a
 *   retry hint).
 */
export function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (dataSource.options.type !== 'better-sqlite3') return dataSource.transaction(work);
  const giveUpAt = busyDeadline();
  return retryWhileBusy(() => hold(dataSource, () => dataSource.transaction(work), giveUpAt), { giveUpAt });
}

/** The transaction holding SQLite's transaction gate, so no other request's statement runs inside it. */
function hold<T>(dataSource: DataSource, transaction: () => Promise<T>, giveUpAt: number): Promise<T> {
  const gate = TransactionGate.of(dataSource);
  return gate ? gate.hold(transaction, giveUpAt) : transaction();
}
