import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral, ValueTransformer } from 'typeorm';

/**
 * Runs one statement through `DataSource.query` with `:named` parameters (`:...name` for a list), for the
 * hot paths that say in SQL what the query builder cannot (an `UPDATE … RETURNING` on SQLite, a JSON merge,
 * a guarded write). Returns the rows of a SELECT or of a `… RETURNING`, on SQLite and PostgreSQL alike
 * (PostgreSQL answers an UPDATE or DELETE with `[rows, count]`). Column names are the tables' own; values
 * come back as the database gives them (`fromRow` reads them as the entity's columns). Inside a
 * transaction, `manager` is the transaction's.
 */
export async function sqlRows<T>(dataSource: DataSource, text: string, parameters: ObjectLiteral, manager?: EntityManager): Promise<T[]> {
  const [sql, values] = positional(dataSource.options.type === 'postgres', text, parameters);
  const result = await (manager ?? dataSource).query<T[] | [T[], number]>(sql, values);
  return Array.isArray(result[0]) ? result[0] : (result as T[]);
}

/**
 * An entity's rows `WHERE where` (the tables' column names, `:named` parameters) as the repositories read
 * them — each value through its column's own transformer (`fromRow`) — with one statement and none of the
 * query builder's cost.
 */
export async function selectEntities<T extends ObjectLiteral>(
  dataSource: DataSource,
  target: EntityTarget<T>,
  where: string,
  parameters: ObjectLiteral,
  orderBy?: string,
  manager?: EntityManager,
): Promise<T[]> {
  const shape = shapeOf(dataSource.getMetadata(target));
  const rows = await sqlRows<Record<string, unknown>>(
    dataSource,
    `${shape.select} WHERE ${where}${orderBy ? ` ORDER BY ${orderBy}` : ''}`,
    parameters,
    manager,
  );
  return rows.map((row) => entityOf<T>(shape, row));
}

/**
 * A scalar subquery giving an entity's rows `WHERE where` (the table's column names, `:named` parameters),
 * ordered by `orderBy`, as one JSON array (text) of objects keyed by column name: rows answered with another
 * statement (in its `RETURNING`), on SQLite and PostgreSQL alike. `fromJsonRows` reads them back.
 */
export function jsonRows<T extends ObjectLiteral>(dataSource: DataSource, target: EntityTarget<T>, where: string, orderBy: string): string {
  const metadata = dataSource.getMetadata(target);
  const table = `"${metadata.tableName}"`;
  if (dataSource.options.type === 'postgres') return `(SELECT COALESCE(json_agg(r ORDER BY ${orderBy}), '[]')::text FROM ${table} r WHERE ${where})`;
  const columns = shapeOf(metadata).byColumn.keys();
  const object = `json_object(${[...columns].map((name) => `'${name}', "${name}"`).join(', ')})`;
  return `(SELECT json_group_array(${object} ORDER BY ${orderBy}) FROM ${table} WHERE ${where})`;
}

/** The entities of a `jsonRows` answer, each value through its column's transformer (as `selectEntities` reads them). */
export function fromJsonRows<T extends ObjectLiteral>(dataSource: DataSource, target: EntityTarget<T>, text: string): T[] {
  const shape = shapeOf(dataSource.getMetadata(target));
  return (JSON.parse(text) as Record<string, unknown>[]).map((row) => entityOf<T>(shape, row));
}

/** `SELECT COUNT(*) …` (`text` from FROM on): the count, a number on both databases (PostgreSQL answers a string). */
export async function sqlCount(dataSource: DataSource, text: string, parameters: ObjectLiteral, manager?: EntityManager): Promise<number> {
  const [row] = await sqlRows<{ n: number | string }>(dataSource, `SELECT COUNT(*) AS n ${text}`, parameters, manager);
  return Number(row?.n ?? 0);
}

/** `column = :column` for each column, for a SET list (the parameters carry the same names). */
export const assignments = (columns: Record<string, unknown>): string[] => Object.keys(columns).map((column) => `${column} = :${column}`);

/**
 * The entity's properties among a row's columns (the table's column names; other columns are left out),
 * each through its column's transformer as the repositories read it: e.g. `RETURNING` or a join's columns.
 */
export function fromRow<T extends ObjectLiteral>(dataSource: DataSource, target: EntityTarget<T>, row: Record<string, unknown>): Partial<T> {
  const { byColumn } = shapeOf(dataSource.getMetadata(target));
  const entity: Record<string, unknown> = {};
  for (const name in row) {
    const column = byColumn.get(name);
    if (column) entity[column.property] = column.read(row[name]);
  }
  return entity as Partial<T>;
}

/**
 * The values to write for these entity properties, by the table's column names, each through its column's
 * transformer as the repositories write it (for `assignments` and `:named` parameters).
 */
export function toColumns<T extends ObjectLiteral>(dataSource: DataSource, target: EntityTarget<T>, values: Partial<T>): Record<string, unknown> {
  const { byProperty } = shapeOf(dataSource.getMetadata(target));
  const columns: Record<string, unknown> = {};
  for (const [property, value] of Object.entries(values) as [string, unknown][]) {
    const column = byProperty.get(property);
    if (!column) throw new Error(`${property} is not a column`);
    if (value !== undefined) columns[column.name] = column.write(value);
  }
  return columns;
}

/** One column: its names and its transformers (applied as TypeORM applies them: `to` first to last, `from` last to first). */
interface Column {
  property: string;
  name: string;
  read(value: unknown): unknown;
  write(value: unknown): unknown;
}

interface Shape {
  select: string;
  byColumn: Map<string, Column>;
  byProperty: Map<string, Column>;
}
const shapes = new WeakMap<EntityMetadata, Shape>();

/** The entity's select list and its columns by name (built once per entity). */
function shapeOf(metadata: EntityMetadata): Shape {
  let shape = shapes.get(metadata);
  if (shape === undefined) {
    const quoted = (name: string): string => `"${name}"`;
    const columns = metadata.columns.map((column): Column => {
      const chain: ValueTransformer[] = column.transformer === undefined ? [] : ([] as ValueTransformer[]).concat(column.transformer);
      return {
        property: column.propertyName,
        name: column.databaseName,
        read: (value) => chain.reduceRight((held, transformer) => transformer.from(held) as unknown, value),
        write: (value) => chain.reduce((stored, transformer) => transformer.to(stored) as unknown, value),
      };
    });
    shape = {
      select: `SELECT ${columns.map((column) => quoted(column.name)).join(', ')} FROM ${quoted(metadata.tableName)}`,
      byColumn: new Map(columns.map((column) => [column.name, column])),
      byProperty: new Map(columns.map((column) => [column.property, column])),
    };
    shapes.set(metadata, shape);
  }
  return shape;
}

function entityOf<T>(shape: Shape, row: Record<string, unknown>): T {
  const entity: Record<string, unknown> = {};
  for (const column of shape.byColumn.values()) entity[column.property] = column.read(row[column.name]);
  return entity as T;
}

/**
 * `:name` and `:...name` replaced by the database's positional placeholders (`$1` on PostgreSQL, `?` on
 * SQLite) and their values in order. A `::cast` is left alone. On SQLite a safe integer is bound as a BigInt
 * (the same INTEGER stored): bound, never written into the text, so one prepared statement serves every value.
 */
function positional(postgres: boolean, text: string, parameters: ObjectLiteral): [string, unknown[]] {
  const values: unknown[] = [];
  const sql = text.replace(/(?<!:):(\.\.\.)?([A-Za-z_]\w*)/g, (_match, list: string | undefined, name: string) => {
    if (!Object.hasOwn(parameters, name)) throw new Error(`No value for the parameter :${name}`);
    const value: unknown = parameters[name];
    const bound = list ? (value as unknown[]) : [value];
    return bound
      .map((one) => {
        values.push(!postgres && typeof one === 'number' && Number.isSafeInteger(one) ? BigInt(one) : one);
        return postgres ? `$${values.length}` : '?';
      })
      .join(', ');
  });
  return [sql, values];
}
