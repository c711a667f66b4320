import type { DataSource, Logger } from 'typeorm';

/** One statement sent to the database (a transaction's BEGIN and COMMIT are statements too), and what was running it. */
export interface LoggedStatement {
  sql: string;
  parameters: readonly unknown[] | Record<string, unknown>;
  /** What `tagOf` answered when the statement was sent (e.g. the trace it belongs to). */
  tag: string | undefined;
}

/** The statements a DataSource sends from now on, until `stop()`. */
export interface StatementLog {
  readonly statements: readonly LoggedStatement[];
  stop(): void;
}

type Listener = (sql: string, parameters: readonly unknown[] | Record<string, unknown> | undefined) => void;
const listeners = new WeakMap<DataSource, Set<Listener>>();

/**
 * TypeORM's logger of a DataSource made by `createDataSource`: it hears every statement sent — through
 * repositories, the query builder or `query()`, on SQLite and PostgreSQL alike — and tells the listeners
 * of that DataSource (`onStatement`). It logs nothing itself (the services log through their own logger).
 */
export function statementListener(dataSource: () => DataSource): Logger {
  const none = (): void => undefined;
  return {
    logQuery: (sql, parameters) => {
      const heard = listeners.get(dataSource());
      if (heard) for (const listener of heard) listener(sql, parameters);
    },
    logQueryError: none,
    logQuerySlow: none,
    logSchemaBuild: none,
    logMigration: none,
    log: none,
  };
}

/** Calls `listener` with each statement `dataSource` (made by `createDataSource`) sends from now on; returns the stop function. */
export function onStatement(dataSource: DataSource, listener: Listener): () => void {
  const heard = listeners.get(dataSource) ?? new Set<Listener>();
  listeners.set(dataSource, heard.add(listener));
  return () => void heard.delete(listener);
}

/**
 * Logs every statement `dataSource` sends, each tagged by `tagOf` (called as the statement is sent, in
 * its async context: e.g. the trace it belongs to). For counting what a request costs.
 */
export function logStatements(dataSource: DataSource, tagOf: () => string | undefined = () => undefined): StatementLog {
  const statements: LoggedStatement[] = [];
  const stop = onStatement(dataSource, (sql, parameters) => void statements.push({ sql, parameters: parameters ?? [], tag: tagOf() }));
  return { statements, stop };
}
