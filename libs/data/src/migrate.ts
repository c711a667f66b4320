import type { DataSource } from 'typeorm';
import { createDataSource, type DatabaseConfig } from './data-source.factory.js';
import { retryWhileBusy } from './sqlite-busy.js';

/**
 * Applies pending migrations (each in its own transaction); returns the names applied. On SQLite, a
 * migration that met another app's write lock is rolled back and the pending ones tried again.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const applied = await retryWhileBusy(() => dataSource.runMigrations({ transaction: 'each' }));
  return applied.map((migration) => migration.name);
}

/** Reverts every applied migration, newest first (tests and `antictl db reset`). */
export async function revertAllMigrations(dataSource: DataSource): Promise<number> {
  let reverted = 0;
  for (;;) {
    const executed = await dataSource.query<unknown[]>('SELECT * FROM migrations');
    if (executed.length === 0) return reverted;
    await dataSource.undoLastMigration({ transaction: 'each' });
    reverted++;
  }
}

/** Connects, migrates, disconnects: the deploy manifests' migration Job and `antictl db migrate`. */
export async function migrate(config: { database: DatabaseConfig }): Promise<string[]> {
  const dataSource = createDataSource(config.database);
  await dataSource.initialize();
  try {
    return await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
