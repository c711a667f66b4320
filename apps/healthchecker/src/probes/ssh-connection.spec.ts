import { expect, it, vi } from 'vitest';

/** Whether ssh2 has been imported (@antidote/testing imports it too, so it is imported after the check). */
const ssh2 = vi.hoisted(() => ({ loaded: false }));
vi.mock('ssh2', (original) => ((ssh2.loaded = true), original()));

it('imports ssh2 on the first SSH probe, not with the healthchecker', async () => {
  await import('../healthchecker.definition.js');
  expect(ssh2.loaded).toBe(false);

  // Imported on demand, the probe works: an endpoint that hangs up is not reachable over SSH.
  const endpoint = await (await import('@antidote/testing')).startHangUpServer();
  const { sshProbe } = await import('./ssh.probe.js');
  expect((await sshProbe({ host: '127.0.0.1', port: endpoint.port, timeoutMs: 30_000 })).reachable).toBe(false);
  await endpoint.close();
});
