import { startPostgres } from './postgres.process.js';
import { TEST_PG_URL_ENV } from './test-servers.js';

/**
 * Vitest global setup for projects whose tests use PostgreSQL: one throwaway server for the whole run
 * (unless the caller already shares one through ANTIDOTE_TEST_PG_URL), stopped when the run ends.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[TEST_PG_URL_ENV]) return undefined;
  const server = await startPostgres();
  process.env[TEST_PG_URL_ENV] = server.url;
  return async () => {
    delete process.env[TEST_PG_URL_ENV];
    await server.stop();
  };
}
