import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource, DataManager, runMigrations } from '@antidote/data';
import { testPostgresDatabase } from './test-servers.js';

export type DatabaseKind = 'sqlite' | 'postgres';
/** Every suite that touches the database runs against both. */
export const DATABASE_KINDS: readonly DatabaseKind[] = ['sqlite', 'postgres'];

export interface TestDatabase {
  kind: DatabaseKind;
  url: string;
  data: DataManager;
  close(): Promise<void>;
}

/** A database URL of the given kind, fresh and empty: a SQLite file in a temp folder, or a new PostgreSQL database. */
export async function testDatabaseUrl(kind: DatabaseKind): Promise<{ url: string; cleanup: () => void }> {
  if (kind === 'postgres') return { url: await testPostgresDatabase('data'), cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'antidote-sqlite-'));
  return { url: `sqlite:${join(dir, 'antidote.sqlite')}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A migrated SQLite database in memory with a DataManager on it: for unit specs (no file, no server). */
export async function memoryDatabase(now?: () => Date): Promise<DataManager> {
  const dataSource = createDataSource({ url: 'sqlite::memory:', poolSize: 1, migrateOnStart: false });
  await dataSource.initialize();
  await runMigrations(dataSource);
  return new DataManager(dataSource, now);
}

/** A migrated database of the given kind with a DataManager on it (`now` for an injected clock). */
export async function testDatabase(kind: DatabaseKind, now?: () => Date): Promise<TestDatabase> {
  const { url, cleanup } = await testDatabaseUrl(kind);
  const dataSource = createDataSource({ url, poolSize: 5, migrateOnStart: false });
  await dataSource.initialize();
  await runMigrations(dataSource);
  const data = new DataManager(dataSource, now);
  return {
    kind,
    url,
    data,
    async close() {
      await data.close();
      cleanup();
    },
  };
}
