import { EventSubjects, inboxPrefixOf, RequestSubjects, type BusIdentity } from '@antidote/contracts';
import { testNats, type TestNats } from '@antidote/testing';
import { connect, errors, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, NatsAuthenticationError } from './index.js';

/** The permission violations the server reported to a connection, as they arrive. */
function violations(connection: NatsConnection): string[] {
  const seen: string[] = [];
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'error' && status.error instanceof errors.PermissionViolationError) seen.push(`${status.error.operation} ${status.error.subject}`);
    }
  })();
  return seen;
}

/**
 * The bus's authorization as every deployment runs it (the table in @antidote/contracts rendered into
 * nats-server's config): who may connect, publish and subscribe is decided by the server.
 */
describe('NATS authorization (real nats-server)', () => {
  let nats: TestNats;
  const open: NatsConnection[] = [];
  const as = async (identity: BusIdentity): Promise<NatsConnection> => {
    const connection = await connectNats(nats.loginAs(identity), `as-${identity}`);
    open.push(connection);
    return connection;
  };

  beforeAll(async () => {
    nats = await testNats();
  });
  afterAll(async () => {
    for (const connection of open) await connection.close();
    await nats?.stop();
  });

  it('refuses a client with no credentials, or with a made-up user', async () => {
    await expect(connect({ servers: nats.url, maxReconnectAttempts: 0 })).rejects.toThrow(/Authorization Violation/);
    const stranger = { natsUrl: nats.url, nats: { user: 'intruder', password: 'guess', requestTimeoutSeconds: 1 } };
    await expect(connectNats(stranger, 'intruder')).rejects.toBeInstanceOf(NatsAuthenticationError);
  });

  it("with the healthchecker's login, a live-lesson request is refused by the server, not delivered", async () => {
    const scheduler = await as('scheduler');
    const delivered: string[] = [];
    scheduler.subscribe(RequestSubjects.liveLessonDelete, { callback: (_error, message) => void delivered.push(message.string()) });
    await scheduler.flush();
    const healthchecker = await as('healthchecker');
    const refused = violations(healthchecker);
    healthchecker.publish(RequestSubjects.liveLessonDelete, 'forged');
    healthchecker.publish(RequestSubjects.liveLessonCreate, 'forged');
    // The server answers each refused publish with an error: once both are reported, both were dropped.
    await expect.poll(() => refused).toEqual([`publish ${RequestSubjects.liveLessonDelete}`, `publish ${RequestSubjects.liveLessonCreate}`]);
    // The api may send it: it arrives, and nothing forged arrived before it.
    const api = await as('api');
    api.publish(RequestSubjects.liveLessonDelete, 'from-the-api');
    await expect.poll(() => delivered).toEqual(['from-the-api']);
  });

  it("with the healthchecker's login, a forged status event never reaches the api", async () => {
    const api = await as('api');
    const heard: string[] = [];
    api.subscribe(EventSubjects.liveLessonStatusChanged, { callback: (_error, message) => void heard.push(`status ${message.string()}`) });
    api.subscribe(EventSubjects.healthProgressed, { callback: (_error, message) => void heard.push(`progress ${message.string()}`) });
    await api.flush();
    const healthchecker = await as('healthchecker');
    const refused = violations(healthchecker);
    healthchecker.publish(EventSubjects.liveLessonStatusChanged, 'forged');
    // Then a message it may publish: one publisher's messages arrive in order, so the forged one is not merely late.
    healthchecker.publish(EventSubjects.healthProgressed, 'genuine');
    await expect.poll(() => heard).toEqual(['progress genuine']);
    await expect.poll(() => refused).toEqual([`publish ${EventSubjects.liveLessonStatusChanged}`]);
  });

  it('lets only the subscribers the table names listen: the healthchecker cannot hear status events or requests', async () => {
    const healthchecker = await as('healthchecker');
    const refused = violations(healthchecker);
    healthchecker.subscribe(EventSubjects.liveLessonStatusChanged);
    healthchecker.subscribe(RequestSubjects.liveLessonCreate);
    healthchecker.subscribe('antidote.>');
    await healthchecker.flush();
    await expect
      .poll(() => [...refused].sort())
      .toEqual([`subscription ${EventSubjects.liveLessonStatusChanged}`, `subscription ${RequestSubjects.liveLessonCreate}`, 'subscription antidote.>'].sort());
  });

  it("keeps each identity's replies private: the reaper cannot read the api's inbox", async () => {
    const reaper = await as('reaper');
    const refused = violations(reaper);
    reaper.subscribe(`${inboxPrefixOf('api')}.>`);
    reaper.subscribe('_INBOX.>');
    await reaper.flush();
    await expect.poll(() => refused.length).toBe(2);
  });

  it('answers a request end to end when both sides hold the rights (the reply goes to the private inbox)', async () => {
    const scheduler = await as('scheduler');
    scheduler.subscribe(RequestSubjects.liveLessonKeepAlive, { max: 1, callback: (_error, message) => void message.respond('{"accepted":true}') });
    await scheduler.flush();
    const api = await as('api');
    const reply = await api.request(RequestSubjects.liveLessonKeepAlive, '{"liveLessonId":"abcdefghij"}', { timeout: 30_000 });
    expect(reply.string()).toBe('{"accepted":true}');
  });
});
