import pg from 'pg';
import { connectWithRetry } from './database-unavailable.js';

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * node-postgres' pool, except that checking out a connection rides out a restarting server: a connect
 * refused (or "the database system is starting up") is tried again for up to the pool option
 * `connectRetryMs` (`database.connectRetrySeconds`). Nothing ran on a connection that was never made, so
 * this is safe for every statement, reads and writes alike.
 */
export class RetryingPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const budgetMs = (this.options as { connectRetryMs?: number }).connectRetryMs ?? 0;
    const attempt = connectWithRetry(() => super.connect(), budgetMs);
    if (!callback) return attempt;
    attempt.then(
      (client) => callback(undefined, client, (release) => client.release(release as boolean | Error | undefined)),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), undefined, () => undefined),
    );
  }
}

/** The `pg` module as TypeORM loads it, with RetryingPool as its Pool. */
export const retryingPg: typeof pg = Object.assign(Object.create(pg) as typeof pg, { Pool: RetryingPool });
