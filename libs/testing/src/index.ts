export { externalPostgres, freePort, postgresBinDir, startPostgres } from './postgres.process.js';
export type { PostgresProcess } from './postgres.process.js';
export { TEST_PG_URL_ENV, testNats, testPostgres, testPostgresDatabase } from './test-servers.js';
