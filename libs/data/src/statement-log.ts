import type { DataSource, EntitySubscriberInterface } from 'typeorm';

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

/**
 * Logs every statement `dataSource` sends — through repositories, the query builder or `query()`, on
 * SQLite and PostgreSQL alike — with TypeORM's own hook (a subscriber's `beforeQuery`), each tagged by
 * `tagOf` (called as the statement is sent, in its async context). For counting what a request costs.
 */
export function logStatements(dataSource: DataSource, tagOf: () => string | undefined = () => undefined): StatementLog {
  const statements: LoggedStatement[] = [];
  const subscriber: EntitySubscriberInterface = {
    beforeQuery: (event) => void statements.push({ sql: event.query, parameters: event.parameters ?? [], tag: tagOf() }),
  };
  dataSource.subscribers.push(subscriber);
  return {
    statements,
    stop: () => {
      const at = dataSource.subscribers.indexOf(subscriber);
      if (at >= 0) dataSource.subscribers.splice(at, 1);
    },
  };
}
