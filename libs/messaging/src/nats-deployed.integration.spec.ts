import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventSubjects, RequestSubjects } from '@antidote/contracts';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerProcess } from './dev.js';
import { deployedNatsAuthorizationConfig, natsPasswordEnv } from './index.js';

const SHIPPED = join(import.meta.dirname, '..', '..', '..', 'deploy', 'k8s', 'base', 'nats-authorization.yaml');

/** The `authorization.conf` text of the shipped ConfigMap (a YAML block scalar indented by four). */
function shippedAuthorization(): string {
  const lines = readFileSync(SHIPPED, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === 'authorization.conf: |');
  return `${lines
    .slice(start + 1)
    .filter((line) => line.startsWith('    ') || line === '')
    .map((line) => line.slice(4))
    .join('\n')
    .trimEnd()}\n`;
}

/** The authorization block shipped in deploy/k8s, as a NATS the operator runs would load it. */
describe('the shipped nats-server authorization (deploy/k8s/base/nats-authorization.yaml)', () => {
  let server: NatsServerProcess;
  const passwords = { api: 'pw-api-1', scheduler: 'pw-sched-2', healthchecker: 'pw-hc-3', reaper: 'pw-reaper-4', admin: 'pw-admin-5' } as const;
  const open: NatsConnection[] = [];

  beforeAll(async () => {
    const env = Object.fromEntries(Object.entries(passwords).map(([identity, password]) => [natsPasswordEnv(identity as keyof typeof passwords), password]));
    server = await startNatsServer({ config: shippedAuthorization(), env });
  });
  afterAll(async () => {
    for (const connection of open) await connection.close();
    await server?.stop();
  });

  it('is the block generated from the permission table in @antidote/contracts (regenerate with `antictl nats-config`)', () => {
    expect(shippedAuthorization()).toBe(deployedNatsAuthorizationConfig());
    const composeCopy = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docker', 'nats-authorization.conf'), 'utf8');
    expect(composeCopy.replace(/^#.*\n/gm, '')).toBe(deployedNatsAuthorizationConfig());
  });

  it('admits each app with the password from its environment, and nobody without one', async () => {
    for (const [user, pass] of Object.entries(passwords)) open.push(await connect({ servers: server.url, user, pass }));
    await expect(connect({ servers: server.url, maxReconnectAttempts: 0 })).rejects.toThrow(/Authorization Violation/);
    await expect(connect({ servers: server.url, user: 'api', pass: 'wrong', maxReconnectAttempts: 0 })).rejects.toThrow(/Authorization Violation/);
  });

  it('enforces the permissions: the api cannot publish a status event', async () => {
    const api = await connect({ servers: server.url, user: 'api', pass: passwords.api });
    open.push(api);
    const refused: string[] = [];
    void (async () => {
      for await (const status of api.status()) if (status.type === 'error') refused.push(String(status.error.message));
    })();
    api.publish(EventSubjects.liveLessonStatusChanged, '{}');
    api.publish(RequestSubjects.healthCheck, '{}');
    await expect.poll(() => refused.length).toBe(2);
    expect(refused.join('\n')).toMatch(/Permissions Violation for Publish to "antidote\.livelesson\.status-changed\.v1"/);
  });
});
