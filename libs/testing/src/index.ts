export { externalPostgres, freePort, postgresBinDir, startPostgres } from './postgres.process.js';
export type { PostgresProcess } from './postgres.process.js';
export { TEST_PG_URL_ENV, testNats, testPostgres, testPostgresDatabase } from './test-servers.js';
export { DATABASE_KINDS, testDatabase, testDatabaseUrl } from './test-database.js';
export type { DatabaseKind, TestDatabase } from './test-database.js';
export { makeCollection, makeCurriculum, makeEndpoint, makeImage, makeLesson, makeLiveEndpoint, makeNewLiveLesson } from './model-fixtures.js';
export { INSTANCE, startTestPlatform } from './test-platform.js';
export type { TestPlatform, TestPlatformOptions } from './test-platform.js';
