import pg from 'pg';
import { connect } from '@nats-io/transport-node';
import { afterAll, describe, expect, it } from 'vitest';
import { testNats, testPostgresDatabase } from './index.js';

describe('test servers', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('starts a real nats-server that survives a restart on the same port', async () => {
    const nats = await testNats();
    cleanups.push(() => nats.stop());
    const nc = await connect({ servers: nats.url, reconnectTimeWait: 50, maxReconnectAttempts: -1 });
    const sub = nc.subscribe('ping');
    const reconnected = (async () => {
      for await (const status of nc.status()) if (status.type === 'reconnect') return;
    })();
    await nats.restart(100);
    await reconnected;
    nc.publish('ping', 'hello');
    for await (const message of sub) {
      expect(message.string()).toBe('hello');
      break;
    }
    await nc.close();
  });

  it('gives each caller a fresh PostgreSQL database', async () => {
    const [a, b] = await Promise.all([testPostgresDatabase('a'), testPostgresDatabase('b')]);
    expect(a).not.toBe(b);
    const client = new pg.Client({ connectionString: a });
    await client.connect();
    const result = await client.query<{ db: string }>('select current_database() as db');
    expect(a.endsWith(`/${result.rows[0].db}`)).toBe(true);
    await client.end();
  });
});
