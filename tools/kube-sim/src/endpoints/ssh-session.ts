import type ssh2 from 'ssh2';
import { runCommand, SimShell, type ShellIdentity } from './sim-shell.js';

/**
 * One SSH session on a simulated endpoint: `shell` (with or without a pty) runs the simulated shell,
 * `exec` runs one command; both report the exit status and close the channel.
 */
export function serveSshSession(session: ssh2.Session, identity: ShellIdentity): void {
  let tty = false;
  session.on('pty', (accept) => {
    tty = true;
    accept?.();
  });
  session.on('window-change', (accept) => accept?.());
  session.on('env', (accept) => accept?.());
  session.on('exec', (accept, _reject, info) => {
    const stream = accept();
    const { output, code } = runCommand(info.command, identity);
    stream.write(tty ? output.replaceAll('\n', '\r\n') : output);
    stream.exit(code);
    stream.end();
  });
  session.on('shell', (accept) => {
    const stream = accept();
    const shell = new SimShell(
      identity,
      {
        write: (text) => stream.write(text),
        exit: (code) => {
          stream.exit(code);
          stream.end();
        },
      },
      tty,
    );
    stream.on('data', (data: Buffer) => shell.input(data));
    stream.on('end', () => shell.end());
    shell.start();
  });
}
