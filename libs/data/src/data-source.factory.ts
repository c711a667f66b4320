import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import type { AntidoteConfig } from '@antidote/config';
import { entities } from './entities/index.js';
import { migrations } from './migrations/index.js';
import { retryingPg } from './retrying-pool.js';
import { waitForLocksOffTheLoop } from './sqlite-busy.js';
import { statementListener } from './statement-log.js';

/** The database settings; `connectRetrySeconds` defaults as in the configuration (tools and tests leave it out). */
export type DatabaseConfig = Omit<AntidoteConfig['database'], 'connectRetrySeconds'> & Partial<Pick<AntidoteConfig['database'], 'connectRetrySeconds'>>;
export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'sqlite'; path: string };

/** `postgres://…` / `postgresql://…` → PostgreSQL; `sqlite:<path>`, `sqlite::memory:` or a bare path → SQLite. */
export function databaseTarget(url: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  return { kind: 'sqlite', path: path === ':memory:' ? path : resolve(path) };
}

/** A DataSource for the configured database; never `synchronize` — the schema comes from migrations. */
export function createDataSource(database: DatabaseConfig): DataSource {
  const target = databaseTarget(database.url);
  // Every statement is heard by the DataSource's listeners (`onStatement`: metrics, statement counts).
  let dataSource: DataSource | undefined;
  const logger = statementListener(() => dataSource!);
  const common = { entities, migrations, synchronize: false, migrationsRun: false, logging: false, logger } as const;
  if (target.kind === 'postgres') {
    // retryingPg: a connection refused while the server restarts is tried again inside the request.
    return (dataSource = new DataSource({
      ...common,
      type: 'postgres',
      driver: retryingPg,
      url: target.url,
      extra: { max: database.poolSize, connectionTimeoutMillis: 10_000, connectRetryMs: (database.connectRetrySeconds ?? 3) * 1000 },
    }));
  }
  if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
  dataSource = new DataSource({
    ...common,
    type: 'better-sqlite3',
    database: target.path,
    enableWAL: target.path !== ':memory:',
    // No lock is waited for inside SQLite (it would stop the event loop): see waitForLocksOffTheLoop.
    timeout: 0,
    prepareDatabase: (db: { pragma(statement: string): unknown }) => {
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 0');
      // With the WAL, NORMAL syncs at checkpoints rather than at every commit: a crash of the app loses
      // nothing, a power cut may lose the last commits (never the file's integrity). SQLite is the
      // single-machine default; production runs on PostgreSQL.
      db.pragma('synchronous = NORMAL');
    },
  });
  waitForLocksOffTheLoop(dataSource);
  return dataSource;
}
