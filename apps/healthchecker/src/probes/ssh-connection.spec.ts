import { createServer, type AddressInfo } from 'node:net';
import { afterAll, expect, it, vi } from 'vitest';

/** Whether ssh2 has been imported in this test's module graph. */
const ssh2 = vi.hoisted(() => ({ loaded: false }));
vi.mock('ssh2', async (original) => {
  ssh2.loaded = true;
  return original();
});

/** A TCP server that hangs up on every connection: an endpoint that is not an SSH server. */
const hangUp = createServer((socket) => socket.destroy());
afterAll(() => new Promise((done) => hangUp.close(done)));

it('imports ssh2 on the first SSH probe, not with the healthchecker', async () => {
  await import('../healthchecker.definition.js');
  expect(ssh2.loaded).toBe(false);

  await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
  const { sshProbe } = await import('./ssh.probe.js');
  const outcome = await sshProbe({ host: '127.0.0.1', port: (hangUp.address() as AddressInfo).port, timeoutMs: 30_000 });
  expect(ssh2.loaded).toBe(true);
  expect(outcome.reachable).toBe(false);
});
