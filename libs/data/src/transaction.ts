import type { DataSource, EntityManager } from 'typeorm';

const queues = new WeakMap<DataSource, Promise<unknown>>();

/**
 * `dataSource.transaction`, safe under concurrency on SQLite: better-sqlite3 is one connection, and two
 * interleaved transactions on it fail ("Transaction is not started yet"), so there they run one after
 * another. PostgreSQL takes a pooled connection per transaction and runs them in parallel.
 */
export function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (dataSource.options.type !== 'better-sqlite3') return dataSource.transaction(work);
  const previous = queues.get(dataSource) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => dataSource.transaction(work));
  queues.set(dataSource, next.catch(() => undefined));
  return next;
}
