import type { BusIdentity } from '@antidote/contracts';
import { generateBusCredentials, natsAuthorizationConfig, type BusCredentials } from '@antidote/messaging';
import { startNatsServer, type NatsServerProcess } from '@antidote/messaging/dev';
import { externalPostgres, startPostgres, type PostgresProcess } from './postgres.process.js';

/** Set by `.ci/run` (and the root test script) to share one PostgreSQL across all test files. */
export const TEST_PG_URL_ENV = 'ANTIDOTE_TEST_PG_URL';

let sharedPostgres: Promise<PostgresProcess> | undefined;

/** The unit tier (`npm run test:unit`) runs with no servers: a spec that needs one belongs in `*.integration.spec.ts`. */
function refuseInUnitTier(server: string): void {
  if (process.env.ANTIDOTE_TEST_SUITE === 'unit') throw new Error(`unit specs start no ${server}; name this spec *.integration.spec.ts`);
}

/**
 * The PostgreSQL for this test run: the shared one when `ANTIDOTE_TEST_PG_URL` is set, otherwise one
 * started for this test file (stopped when the process exits; killed, by its watchdog: see `startPostgres`).
 */
export function testPostgres(): Promise<PostgresProcess> {
  refuseInUnitTier('PostgreSQL');
  const shared = process.env[TEST_PG_URL_ENV];
  if (shared) return Promise.resolve(externalPostgres(shared));
  sharedPostgres ??= startPostgres().then((server) => {
    process.once('exit', () => void server.stop());
    return server;
  });
  return sharedPostgres;
}

/** A fresh PostgreSQL database URL for one test file or suite. */
export async function testPostgresDatabase(prefix = 'test'): Promise<string> {
  return (await testPostgres()).createDatabase(prefix);
}

/** A test's nats-server, with Antidote's authorization on and a login per identity. */
export interface TestNats extends NatsServerProcess {
  credentials: BusCredentials;
  /** The `natsUrl` and `nats` configuration of a client connecting as `identity`. */
  loginAs(identity: BusIdentity): { natsUrl: string; nats: { user: string; password: string; requestTimeoutSeconds: number } };
}

/**
 * A nats-server of its own for one test file (they start in ~60 ms, so every file gets one), with the
 * same authorization as every real deployment: each identity its own user and subject permissions.
 */
export async function testNats(options: Parameters<typeof startNatsServer>[0] = {}): Promise<TestNats> {
  refuseInUnitTier('nats-server');
  const credentials = generateBusCredentials();
  const server = await startNatsServer({ config: natsAuthorizationConfig(credentials), ...options });
  return Object.assign(server, {
    credentials,
    loginAs: (identity: BusIdentity) => ({ natsUrl: server.url, nats: { ...credentials[identity], requestTimeoutSeconds: 10 } }),
  });
}
