/**
 * How long work on SQLite waits before it fails as SQLITE_BUSY (the api answers 503 with a retry hint),
 * from when it first had to wait: for another request's transaction to end (`TransactionGate`) and for
 * another connection's write lock (`retryWhileBusy`) together — one bound, not one for each.
 */
export const SQLITE_BUSY_WAIT_MS = 10_000;

/** When work that has to wait from now on gives up. */
export const busyDeadline = (): number => Date.now() + SQLITE_BUSY_WAIT_MS;

export function isSqliteBusy(error: unknown): boolean {
  const cause = (error as { driverError?: unknown }).driverError ?? error;
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** The error of work that waited its whole bound (the api answers it 503, as SQLite's own SQLITE_BUSY). */
export const sqliteBusy = (message: string): Error => Object.assign(new Error(`SQLite busy: ${message}`), { code: 'SQLITE_BUSY' });
