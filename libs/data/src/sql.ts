import type { DataSource, ObjectLiteral } from 'typeorm';

/**
 * Runs one statement with `:named` parameters straight through the driver, past the query builder and
 * entity hydration (for the hot paths: a status read or write per event). Returns the rows of a SELECT
 * or of an `UPDATE … RETURNING`, on SQLite and PostgreSQL alike (PostgreSQL answers an UPDATE with
 * `[rows, count]`). Column names are the tables' own; values come back as the driver gives them.
 */
export async function sqlRows<T>(dataSource: DataSource, text: string, parameters: ObjectLiteral): Promise<T[]> {
  const [sql, values] = dataSource.driver.escapeQueryWithParameters(text, parameters);
  const result = await dataSource.query<T[] | [T[], number]>(sql, values);
  return Array.isArray(result[0]) ? result[0] : (result as T[]);
}
