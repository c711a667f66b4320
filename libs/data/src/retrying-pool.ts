import pg from 'pg';
import { connectWithRetry } from './database-unavailable.js';

/**
 * node-postgres says "Connection terminated unexpectedly" with no code; it gets ECONNRESET, so that every
 * layer that passes an error's code along (TypeORM's QueryFailedError, a service's error reply on the
 * bus) still says the database went away, and the caller retries instead of failing.
 */
function coded(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  if (!(error as { code?: unknown }).code && /^Connection terminated/.test(error.message)) Object.assign(error, { code: 'ECONNRESET' });
  return error;
}

const CODED = Symbol('antidote.coded');

/** The client, its promise-returning `query` failing with coded errors (patched once per client: the pool reuses them). */
function withCodedErrors(client: pg.PoolClient): pg.PoolClient {
  const marked = client as pg.PoolClient & { [CODED]?: true };
  if (marked[CODED]) return client;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  Object.assign(client, {
    [CODED]: true,
    query: (...args: unknown[]) => {
      const result = query(...args);
      return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(coded(error))) : result;
    },
  });
  return client;
}

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * node-postgres' pool, except that checking out a connection rides out a restarting server: a connect
 * refused (or "the database system is starting up") is tried again for up to the pool option
 * `connectRetryMs` (`database.connectRetrySeconds`). Nothing ran on a connection that was never made, so
 * this is safe for every statement, reads and writes alike. A statement cut off by the server going away
 * fails with the code ECONNRESET (see `coded`).
 */
export class RetryingPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const budgetMs = (this.options as { connectRetryMs?: number }).connectRetryMs ?? 0;
    const attempt = connectWithRetry(() => super.connect(), budgetMs).then(withCodedErrors);
    if (!callback) return attempt;
    attempt.then(
      (client) => callback(undefined, client, (release) => client.release(release as boolean | Error | undefined)),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), undefined, () => undefined),
    );
  }
}

/** The `pg` module as TypeORM loads it, with RetryingPool as its Pool. */
export const retryingPg: typeof pg = Object.assign(Object.create(pg) as typeof pg, { Pool: RetryingPool });
