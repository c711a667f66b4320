import { parseConfig } from '@antidote/config';
import { ErrorCodes, RequestSubjects } from '@antidote/contracts';
import { testNats, type TestNats } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusClient, BusRequestError, connectNats, NatsConnectionManager } from './index.js';

/** A BusClient over a NatsConnectionManager (as every service has) while its nats-server restarts. */
describe('a bus client across a nats-server restart', () => {
  let nats: TestNats;
  let manager: NatsConnectionManager;
  let bus: BusClient;

  beforeAll(async () => {
    nats = await testNats();
    const { config } = parseConfig({ instanceId: 'test', curriculumDir: '/c', ...nats.loginAs('api') });
    manager = new NatsConnectionManager(config, 'reconnect-test');
    await manager.connected();
    // Nobody ever answers, and the request's own timeout is far away: only the drop can end it early.
    bus = new BusClient(manager, { requestTimeoutMs: 600_000 });
  });
  afterAll(async () => {
    await manager?.drain();
    await nats?.stop();
  });

  it('fails a request waiting for its reply UNAVAILABLE when the connection drops, and tells listeners when it is back', async () => {
    // A scheduler that swallows the request, so it waits for a reply that never comes.
    const scheduler = await connectNats(nats.loginAs('scheduler'), 'silent-scheduler');
    scheduler.subscribe(RequestSubjects.liveLessonCreate, { callback: () => undefined });
    await scheduler.flush();
    let reconnects = 0;
    const stop = bus.onReconnect(() => reconnects++);
    const pending = bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: 'waiting00001' }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await nats.restart(async () => {
      const failure = await pending;
      expect(failure).toBeInstanceOf(BusRequestError);
      expect((failure as BusRequestError).code).toBe(ErrorCodes.unavailable);
      expect((failure as BusRequestError).message).toMatch(/dropped while waiting/);
      expect(reconnects).toBe(0);
    });
    await expect.poll(() => reconnects).toBe(1);
    expect(manager.isConnected()).toBe(true);
    stop();
    await scheduler.close();
  });
});
