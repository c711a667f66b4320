import { Module, type DynamicModule } from '@nestjs/common';
import { testNats } from '@antidote/testing';
import { NatsCredentialsMissingError } from '@antidote/messaging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from './index.js';

@Module({})
class EmptyModule {}
const emptyModule = (): DynamicModule => ({ module: EmptyModule });

describe('startService', () => {
  let nats: Awaited<ReturnType<typeof testNats>>;
  let service: RunningService;

  beforeAll(async () => {
    nats = await testNats();
    service = await startService(
      { name: 'probe', module: emptyModule, port: () => 0, host: () => '127.0.0.1', consumesBus: true },
      { env: {}, argv: [], overrides: { instanceId: 'test', curriculumDir: '/c', ...nats.loginAs('scheduler'), logging: { level: 'silent' } } },
    );
  });

  afterAll(async () => {
    await service?.stop();
    await nats?.stop();
  });

  it('answers liveness, readiness and metrics once its dependencies answer', async () => {
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { nats: true } });
    // With the token a supervisor gave it, /readyz names this very process.
    process.env.ANTIDOTE_INSTANCE_TOKEN = 'token-of-this-process';
    try {
      expect(await (await fetch(`${service.url}/readyz`)).json()).toEqual({ ready: true, checks: { nats: true }, instance: 'token-of-this-process' });
    } finally {
      delete process.env.ANTIDOTE_INSTANCE_TOKEN;
    }
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toContain('process_resident_memory_bytes{service="probe"}');
  });

  it('answers an unknown ops route with a plain 404 at once (a bus consumer, whose filter sees HTTP too)', async () => {
    const response = await fetch(`${service.url}/no-such-route`, { signal: AbortSignal.timeout(10_000) });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: 404 });
  });

  it('reports not-ready while NATS is down and ready again after it returns', async () => {
    const readyz = async (): Promise<number> => (await fetch(`${service.url}/readyz`)).status;
    // NATS stays down until the service has said so: the outcome does not depend on how fast it notices.
    await nats.restart(() => expect.poll(readyz, { interval: 50 }).toBe(503));
    await expect.poll(readyz, { interval: 50 }).toBe(200);
  });

  it('stops at start with the reason when NATS refuses its credentials, or their absence', async () => {
    const start = (login: Record<string, unknown>) =>
      startService(
        { name: 'probe', module: emptyModule, port: () => 0, host: () => '127.0.0.1', consumesBus: true },
        { env: {}, argv: [], overrides: { instanceId: 'test', curriculumDir: '/c', natsUrl: nats.url, nats: login, logging: { level: 'silent' } } },
      );
    // The development opt-out only skips the check at start: a server with authorization still refuses.
    await expect(start({ allowAnonymous: true })).rejects.toThrow(/refused the connection of probe\S* \(no credentials\): Authorization Violation/);
    await expect(start({ user: 'scheduler', password: 'not-the-password' })).rejects.toThrow(
      /refused the connection of probe\S* \(user "scheduler" with a password\)/,
    );
  });

  it('refuses to start without bus credentials, even against a nats-server that has no authorization', async () => {
    const open = await testNats({ config: '' });
    const start = (nats: Record<string, unknown>) =>
      startService(
        { name: 'probe', module: emptyModule, port: () => 0, host: () => '127.0.0.1', consumesBus: true },
        { env: {}, argv: [], overrides: { instanceId: 'test', curriculumDir: '/c', natsUrl: open.url, nats, logging: { level: 'silent' } } },
      );
    try {
      const refusal = start({}).then(
        () => undefined,
        (error: unknown) => error,
      );
      const error = await refusal;
      expect(error).toBeInstanceOf(NatsCredentialsMissingError);
      expect((error as Error).message).not.toContain('\n');
      expect((error as Error).message).toMatch(
        /^probe has no NATS credentials: set nats\.user and nats\.password \(ANTIDOTE_NATS_USER, ANTIDOTE_NATS_PASSWORD\).*nats\.allowAnonymous: true \(ANTIDOTE_NATS_ALLOW_ANONYMOUS=true\)$/,
      );
      // A user without its password is no credential either.
      await expect(start({ user: 'api' })).rejects.toBeInstanceOf(NatsCredentialsMissingError);
      // With the explicit development opt-out, set through its variable, it starts and is ready.
      const anonymous = await startService(
        { name: 'probe', module: emptyModule, port: () => 0, host: () => '127.0.0.1', consumesBus: true },
        {
          env: { ANTIDOTE_NATS_ALLOW_ANONYMOUS: 'true' },
          argv: [],
          overrides: { instanceId: 'test', curriculumDir: '/c', natsUrl: open.url, logging: { level: 'silent' } },
        },
      );
      try {
        expect((await fetch(`${anonymous.url}/readyz`, { signal: AbortSignal.timeout(10_000) })).status).toBe(200);
      } finally {
        await anonymous.stop();
      }
    } finally {
      await open.stop();
    }
  });

  it('refuses to start on an invalid configuration, naming the key', async () => {
    await expect(
      startService(
        { name: 'bad', module: emptyModule, port: () => 0, consumesBus: false },
        { env: {}, argv: [], overrides: { instanceId: 'Bad_Id', curriculumDir: '/c' } },
      ),
    ).rejects.toThrow(/instanceId: must be a DNS-1123 label/);
  });
});
