import type { DataSource } from 'typeorm';

/**
 * The SQL, on SQLite and on PostgreSQL, over a live lesson's JSON columns (kept as text on both): the
 * database merges into them in the statement that writes them, so no write reads the row first. Each takes
 * its values as `:named` parameters — `:key` (a key) and, on SQLite, `:keyPath` (its JSON path, `keyPath`).
 */
export interface JsonSql {
  /** `column` (an object) with `:key` set to `value` (an SQL expression). */
  withKey(column: string, value: string): string;
  /** Whether `column` (an object) has `:key`. */
  hasKey(column: string): string;
  /** The keys of `column` (an object). */
  keyCount(column: string): string;
  /** Whether `column` (an array of objects) has one whose `name` is `:key`. */
  hasNamed(column: string): string;
  /** `column` (an object) with the keys of `:patch` (a JSON object) set. */
  patched(column: string): string;
  /** The larger of two numbers. */
  greatest(a: string, b: string): string;
}

const postgres: JsonSql = {
  withKey: (column, value) => `(${column}::jsonb || jsonb_build_object(CAST(:key AS text), ${value}))::text`,
  hasKey: (column) => `(${column}::jsonb -> CAST(:key AS text)) IS NOT NULL`,
  keyCount: (column) => `(SELECT COUNT(*) FROM jsonb_object_keys(${column}::jsonb))`,
  hasNamed: (column) => `EXISTS (SELECT 1 FROM jsonb_array_elements(${column}::jsonb) e WHERE e ->> 'name' = CAST(:key AS text))`,
  patched: (column) => `(${column}::jsonb || CAST(:patch AS jsonb))::text`,
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
};

const sqlite: JsonSql = {
  withKey: (column, value) => `json_set(${column}, :keyPath, ${value})`,
  hasKey: (column) => `json_type(${column}, :keyPath) IS NOT NULL`,
  keyCount: (column) => `(SELECT COUNT(*) FROM json_each(${column}))`,
  hasNamed: (column) => `EXISTS (SELECT 1 FROM json_each(${column}) e WHERE json_extract(e.value, '$.name') = :key)`,
  patched: (column) => `json_patch(${column}, :patch)`,
  greatest: (a, b) => `MAX(${a}, ${b})`,
};

export const jsonSqlOf = (dataSource: DataSource): JsonSql => (dataSource.options.type === 'postgres' ? postgres : sqlite);

/** The parameters `:key` and `:keyPath` for a key (any characters: the path quotes it). */
export const keyParameters = (key: string): { key: string; keyPath: string } => ({ key, keyPath: `$.${JSON.stringify(key)}` });
