import pg from 'pg';
import { RequestSubjects } from '@antidote/contracts';
import { connect } from '@nats-io/transport-node';
import { afterAll, describe, expect, it } from 'vitest';
import { testNats, testPostgresDatabase } from './index.js';

describe('test servers', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('starts a real nats-server with authorization that survives a restart on the same port', async () => {
    const nats = await testNats();
    cleanups.push(() => nats.stop());
    const login = (identity: 'api' | 'scheduler') => ({ servers: nats.url, user: nats.credentials[identity].user, pass: nats.credentials[identity].password });
    const scheduler = await connect({ ...login('scheduler'), reconnectTimeWait: 50, maxReconnectAttempts: -1 });
    const sub = scheduler.subscribe(RequestSubjects.liveLessonCreate);
    const reconnected = (async () => {
      for await (const status of scheduler.status()) if (status.type === 'reconnect') return;
    })();
    await nats.restart(100);
    await reconnected;
    await expect(connect({ servers: nats.url, maxReconnectAttempts: 0 })).rejects.toThrow(/Authorization Violation/);
    const api = await connect(login('api'));
    api.publish(RequestSubjects.liveLessonCreate, 'hello');
    for await (const message of sub) {
      expect(message.string()).toBe('hello');
      break;
    }
    await api.close();
    await scheduler.close();
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
