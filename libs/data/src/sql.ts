import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Runs one statement with `:named` parameters (`:...name` for a list) straight through the driver, past
 * the query builder and entity hydration (for the hot paths: a status read or write per event). Returns
 * the rows of a SELECT or of an `UPDATE … RETURNING`, on SQLite and PostgreSQL alike (PostgreSQL answers
 * an UPDATE with `[rows, count]`). Column names are the tables' own; values come back as the driver gives them.
 * Inside a transaction, `manager` is the transaction's.
 */
export async function sqlRows<T>(dataSource: DataSource, text: string, parameters: ObjectLiteral, manager?: EntityManager): Promise<T[]> {
  const [sql, values] = dataSource.driver.escapeQueryWithParameters(text, dataSource.options.type === 'postgres' ? parameters : boundNumbers(parameters));
  const result = await (manager ?? dataSource).query<T[] | [T[], number]>(sql, values);
  return Array.isArray(result[0]) ? result[0] : (result as T[]);
}

/**
 * An entity's rows `WHERE where` (the tables' column names, `:named` parameters), hydrated as the query
 * builder hydrates them — the driver's conversions, then the columns' transformers — into plain objects,
 * with one statement and none of the builder's cost.
 */
export async function selectEntities<T extends ObjectLiteral>(
  dataSource: DataSource,
  target: EntityTarget<T>,
  where: string,
  parameters: ObjectLiteral,
  orderBy?: string,
  manager?: EntityManager,
): Promise<T[]> {
  const metadata = dataSource.getMetadata(target);
  const rows = await sqlRows<Record<string, unknown>>(
    dataSource,
    `${selectList(dataSource, metadata)} WHERE ${where}${orderBy ? ` ORDER BY ${orderBy}` : ''}`,
    parameters,
    manager,
  );
  const { driver } = dataSource;
  return rows.map((row) => {
    const entity: Record<string, unknown> = {};
    for (const column of metadata.columns) entity[column.propertyName] = driver.prepareHydratedValue(row[column.databaseName], column) as unknown;
    return entity as T;
  });
}

/** `SELECT COUNT(*) …` (`text` from FROM on): the count, a number on both databases (PostgreSQL answers a string). */
export async function sqlCount(dataSource: DataSource, text: string, parameters: ObjectLiteral, manager?: EntityManager): Promise<number> {
  const [row] = await sqlRows<{ n: number | string }>(dataSource, `SELECT COUNT(*) AS n ${text}`, parameters, manager);
  return Number(row?.n ?? 0);
}

/** `column = :column` for each column, for a SET list (the parameters carry the same names). */
export const assignments = (columns: Record<string, unknown>): string[] => Object.keys(columns).map((column) => `${column} = :${column}`);

const selectLists = new WeakMap<EntityMetadata, string>();

/** `SELECT "column", … FROM "table"` for every column of the entity (built once per entity). */
function selectList(dataSource: DataSource, metadata: EntityMetadata): string {
  let select = selectLists.get(metadata);
  if (select === undefined) {
    const { driver } = dataSource;
    select = `SELECT ${metadata.columns.map((column) => driver.escape(column.databaseName)).join(', ')} FROM ${driver.escape(metadata.tableName)}`;
    selectLists.set(metadata, select);
  }
  return select;
}

/**
 * TypeORM's SQLite driver writes a number parameter into the SQL text, which makes every statement with a
 * time or a count in it new to the statement cache (prepared again each time); a safe integer passed as
 * a BigInt is bound like any other parameter (SQLite stores the same INTEGER).
 */
function boundNumbers(parameters: ObjectLiteral): ObjectLiteral {
  const bound: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parameters) as [string, unknown][])
    bound[name] = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
  return bound;
}
