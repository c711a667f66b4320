import { setTimeout as sleep } from 'node:timers/promises';

/** Node socket errors of a server that is not there (restarting, unreachable). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/**
 * PostgreSQL SQLSTATEs of a server going away or not taking connections yet: class 08 (connection
 * exception), 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now), 53300 (too many
 * connections); and SQLite's busy database (another writer held it past `busy_timeout`).
 */
const SERVER_CODES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300', 'SQLITE_BUSY']);
/** node-postgres and its pool say these in words only. */
const MESSAGES = [/^connection terminated/i, /^timeout exceeded when trying to connect/i, /not queryable/i];

/**
 * The database did not answer because it is (for now) unreachable — not because the statement was wrong.
 * Such a failure is worth a retry: the api answers 503 with Retry-After, never 500; the scheduler drives
 * the work again rather than failing the lesson. The error itself is looked at, and the driver's error
 * TypeORM wraps as `driverError` — not an error's `cause`: a Kubernetes call refused has a socket error as
 * its cause and is not the database's.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const candidate of [error, (error as { driverError?: unknown } | undefined)?.driverError]) {
    if (!candidate || typeof candidate !== 'object') continue;
    const { code, message } = candidate as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code))) return true;
    if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

/**
 * Runs `connect` again while it fails because the server is away, for up to `budgetMs` (backing off from
 * 50 ms to 500 ms). Safe for any statement: a connection that was never made ran nothing. A restart of
 * PostgreSQL of a second or two is ridden out inside the request that met it.
 */
export async function connectWithRetry<T>(connect: () => Promise<T>, budgetMs: number): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await connect();
    } catch (error) {
      const pause = Math.min(500, 50 * 2 ** attempt);
      if (!isDatabaseUnavailable(error) || Date.now() + pause > deadline) throw error;
      await sleep(pause);
    }
  }
}
