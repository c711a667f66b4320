import { createServer, type AddressInfo } from 'node:net';
import { afterAll, expect, it, vi } from 'vitest';
import { TerminalRefusal } from './terminal.errors.js';

/** Whether ssh2 has been imported in this test's module graph. */
const ssh2 = vi.hoisted(() => ({ loaded: false }));
vi.mock('ssh2', async (original) => {
  ssh2.loaded = true;
  return original();
});

/** A TCP server that hangs up on every connection: a device that is not an SSH server. */
const hangUp = createServer((socket) => socket.destroy());
afterAll(() => new Promise((done) => hangUp.close(done)));

it('imports ssh2 when the first terminal opens, not with the api', async () => {
  await import('../api.definition.js');
  expect(ssh2.loaded).toBe(false);

  await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
  const { openSshShell } = await import('./ssh-shell.js');
  const target = { host: '127.0.0.1', port: (hangUp.address() as AddressInfo).port, username: 'a', password: 'b' };
  await expect(openSshShell(target, { cols: 80, rows: 24 }, 30_000)).rejects.toBeInstanceOf(TerminalRefusal);
  expect(ssh2.loaded).toBe(true);
});
