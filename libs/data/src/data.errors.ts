import { DataErrorCodes, type DataErrorCode } from '@antidote/contracts';

/** Base of the data layer's domain errors; `code` is what transports map to replies. */
export class DataError extends Error {
  constructor(
    readonly code: DataErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The record does not exist (messages as the original's DataManager). */
export class NotFoundError extends DataError {
  constructor(message: string) {
    super(DataErrorCodes.notFound, message);
  }
}

/** A record with that id (`idTaken`) or that unique combination (`duplicate`) already exists. */
export class DuplicateError extends DataError {
  constructor(
    message: string,
    override readonly code: typeof DataErrorCodes.idTaken | typeof DataErrorCodes.duplicate,
  ) {
    super(code, message);
  }
}

/** Unique-constraint violations of both drivers (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_*). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  const codes = [code, driverError?.code].filter((value): value is string => typeof value === 'string');
  return codes.some((value) => value === '23505' || value === 'SQLITE_CONSTRAINT_PRIMARYKEY' || value === 'SQLITE_CONSTRAINT_UNIQUE');
}
