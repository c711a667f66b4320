import { parseConfig, type AntidoteConfig } from '@antidote/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerProcess } from './dev.js';
import { connectNats, NatsAuthenticationError, NatsConnectionManager } from './index.js';
import { BusServer } from './nest/bus-transport.js';

const PASSWORD = 'pw-9c1f-not-for-logs';
const TOKEN = 'tk-77ab-not-for-logs';

/** The config a service would load, with `nats.*` as an operator sets them (file or ANTIDOTE_NATS_* variables). */
function configWith(natsUrl: string, env: Record<string, string>): AntidoteConfig {
  return parseConfig({ instanceId: 'auth', curriculumDir: '/c', natsUrl }, { env }).config;
}

/** Connects, proves the connection carries messages (a round trip through the server), closes. */
async function roundTrip(config: AntidoteConfig): Promise<string> {
  const connection = await connectNats(config, 'auth-test');
  try {
    const subscription = connection.subscribe('auth.echo', { max: 1, callback: (_error, message) => void message.respond(message.data) });
    await connection.flush();
    const reply = await connection.request('auth.echo', 'ping', { timeout: 30_000 });
    subscription.unsubscribe();
    return reply.string();
  } finally {
    await connection.close();
  }
}

/** The error a refused connection ends with: clear about what was refused, free of the secret. */
async function refusal(config: AntidoteConfig, secret: string): Promise<NatsAuthenticationError> {
  const error = await connectNats(config, 'auth-test').then(
    async (connection) => {
      await connection.close();
      throw new Error('the server accepted the connection');
    },
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(NatsAuthenticationError);
  const refused = error as NatsAuthenticationError;
  expect(refused.message).toMatch(/Authorization Violation/);
  expect(`${refused.message} ${refused.stack ?? ''} ${JSON.stringify(refused)}`).not.toContain(secret);
  return refused;
}

describe('NATS authentication against a real nats-server', () => {
  let withPassword: NatsServerProcess;
  let withToken: NatsServerProcess;

  beforeAll(async () => {
    [withPassword, withToken] = await Promise.all([startNatsServer({ user: 'antidote', password: PASSWORD }), startNatsServer({ token: TOKEN })]);
  });
  afterAll(async () => {
    await withPassword?.stop();
    await withToken?.stop();
  });

  it('connects with the right user and password, from ANTIDOTE_NATS_USER / ANTIDOTE_NATS_PASSWORD', async () => {
    const config = configWith(withPassword.url, { ANTIDOTE_NATS_USER: 'antidote', ANTIDOTE_NATS_PASSWORD: PASSWORD });
    expect(config.nats).toMatchObject({ user: 'antidote', password: PASSWORD });
    expect(await roundTrip(config)).toBe('ping');
  });

  it('refuses a wrong password or none, naming the server and user but not the password', async () => {
    const wrong = await refusal(configWith(withPassword.url, { ANTIDOTE_NATS_USER: 'antidote', ANTIDOTE_NATS_PASSWORD: 'wrong-password' }), 'wrong-password');
    expect(wrong.message).toContain(`NATS at ${withPassword.url} refused the connection of auth-test (user "antidote" with a password)`);
    const none = await refusal(configWith(withPassword.url, {}), PASSWORD);
    expect(none.message).toContain('(no credentials)');
  });

  it('connects with the right token and refuses a wrong one without echoing it', async () => {
    expect(await roundTrip(configWith(withToken.url, { ANTIDOTE_NATS_TOKEN: TOKEN }))).toBe('ping');
    const wrong = await refusal(configWith(withToken.url, { ANTIDOTE_NATS_TOKEN: 'tk-wrong-token' }), 'tk-wrong-token');
    expect(wrong.message).toContain('(a token)');
    await refusal(configWith(withToken.url, {}), TOKEN);
  });

  it("a service's bus consumer (Nest's NATS server) connects with the credentials and reports a refusal the same way", async () => {
    const listen = (server: BusServer) => new Promise<unknown>((resolve) => void server.listen((failure?: unknown) => resolve(failure)));
    const accepted = new BusServer(configWith(withPassword.url, { ANTIDOTE_NATS_USER: 'antidote', ANTIDOTE_NATS_PASSWORD: PASSWORD }), 'auth-test');
    expect(await listen(accepted)).toBeUndefined();
    await accepted.close();
    const refused = new BusServer(configWith(withPassword.url, { ANTIDOTE_NATS_USER: 'antidote', ANTIDOTE_NATS_PASSWORD: 'wrong-password' }), 'auth-test');
    const error = await listen(refused);
    expect(error).toBeInstanceOf(NatsAuthenticationError);
    expect((error as Error).message).toContain(`NATS at ${withPassword.url} refused the connection of auth-test-server (user "antidote" with a password)`);
    expect(`${(error as Error).message} ${(error as Error).stack ?? ''}`).not.toContain('wrong-password');
    await refused.close();
  });

  it('a service whose credentials are refused never reports connected, and its wait fails with the clear error', async () => {
    const manager = new NatsConnectionManager(
      configWith(withPassword.url, { ANTIDOTE_NATS_USER: 'antidote', ANTIDOTE_NATS_PASSWORD: 'wrong-password' }),
      'auth-test',
    );
    await expect(manager.connected()).rejects.toBeInstanceOf(NatsAuthenticationError);
    expect(manager.isConnected()).toBe(false);
  });
});
