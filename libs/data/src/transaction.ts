import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';

const queues = new WeakMap<DataSource, Promise<unknown>>();
/** How long a SQLite transaction that keeps losing the race for the write lock is run again. */
const SQLITE_BUSY_RETRY_MS = 10_000;

/**
 * `dataSource.transaction`, safe under concurrency on SQLite. PostgreSQL takes a pooled connection per
 * transaction and runs them in parallel. On SQLite:
 * - better-sqlite3 is one connection, and two interleaved transactions on it fail ("Transaction is not
 *   started yet"), so within a process they run one after another;
 * - another process on the same file (the apps under `npm start`) may write between this transaction's
 *   read and its write; SQLite then answers SQLITE_BUSY at once (waiting could not help, so the busy
 *   timeout does not apply) and rolls back — the transaction is run again, after a short jittered pause.
 */
export function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (dataSource.options.type !== 'better-sqlite3') return dataSource.transaction(work);
  const previous = queues.get(dataSource) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => retryWhileBusy(() => dataSource.transaction(work)));
  queues.set(
    dataSource,
    next.catch(() => undefined),
  );
  return next;
}

async function retryWhileBusy<T>(transaction: () => Promise<T>): Promise<T> {
  const giveUpAt = Date.now() + SQLITE_BUSY_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isSqliteBusy(error) || Date.now() >= giveUpAt) throw error;
      await sleep(Math.random() * Math.min(100, 5 * 2 ** attempt));
    }
  }
}

function isSqliteBusy(error: unknown): boolean {
  const cause = (error as { driverError?: unknown }).driverError ?? error;
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
