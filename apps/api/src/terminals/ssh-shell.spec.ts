import { expect, it, vi } from 'vitest';
import { TerminalRefusal } from './terminal.errors.js';

/** Whether ssh2 has been imported (@antidote/testing imports it too, so it is imported after the check). */
const ssh2 = vi.hoisted(() => ({ loaded: false }));
vi.mock('ssh2', (original) => ((ssh2.loaded = true), original()));

it('imports ssh2 when the first terminal opens, not with the api', async () => {
  await import('../api.definition.js');
  expect(ssh2.loaded).toBe(false);

  // Imported on demand, the opener works: a device that hangs up refuses the shell.
  const device = await (await import('@antidote/testing')).startHangUpServer();
  const { openSshShell } = await import('./ssh-shell.js');
  await expect(openSshShell({ host: '127.0.0.1', port: device.port, username: 'a', password: 'b' }, { cols: 80, rows: 24 }, 30_000)).rejects.toBeInstanceOf(
    TerminalRefusal,
  );
  await device.close();
});
