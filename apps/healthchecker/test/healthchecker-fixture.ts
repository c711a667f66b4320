import type { RawConfig } from '@antidote/config';
import { createDataSource, DataManager } from '@antidote/data';
import { BusClient, connectNats } from '@antidote/messaging';
import { startService, type RunningService } from '@antidote/runtime';
import { testDatabaseUrl, testNats } from '@antidote/testing';
import type { NatsConnection } from '@nats-io/transport-node';
import { healthcheckerService } from '../src/healthchecker.definition.js';

export interface HealthcheckerFixture {
  nats: Awaited<ReturnType<typeof testNats>>;
  service: RunningService;
  /** The database the healthchecker writes, as the tests read and seed it. */
  data: DataManager;
  /** Asks as the scheduler does, the only one allowed to (`connection` for raw messages). */
  bus: BusClient;
  connection: NatsConnection;
  stop(): Promise<void>;
}

/**
 * One healthchecker on a real nats-server and SQLite, with `healthcheck` settings over quick defaults;
 * the test asks it over NATS as the scheduler.
 */
export async function startHealthchecker(healthcheck: Partial<NonNullable<RawConfig['healthcheck']>>, requestTimeoutMs: number): Promise<HealthcheckerFixture> {
  const nats = await testNats();
  const { url } = await testDatabaseUrl('sqlite');
  const service = await startService(healthcheckerService, {
    env: {},
    argv: [],
    overrides: {
      instanceId: 'hc',
      curriculumDir: '/c',
      ...nats.loginAs('healthchecker'),
      database: { url },
      ops: { healthcheckerPort: 0, host: '127.0.0.1' },
      logging: { level: 'silent' },
      healthcheck: { probeTimeoutMs: 15_000, intervalMs: 100, ...healthcheck },
    },
  });
  const dataSource = createDataSource({ url, poolSize: 2, migrateOnStart: false });
  await dataSource.initialize();
  const data = new DataManager(dataSource);
  const connection: NatsConnection = await connectNats(nats.loginAs('scheduler'), 'test');
  return {
    nats,
    service,
    data,
    bus: new BusClient(connection, { requestTimeoutMs }),
    connection,
    async stop() {
      await connection.close();
      await data.close();
      await service.stop();
      await nats.stop();
    },
  };
}
