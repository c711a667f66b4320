import type { SshTarget } from './terminal-access.js';
import { TerminalCloseCode, TerminalRefusal } from './terminal.errors.js';

/** Port: an interactive shell on a device (one SSH channel with a pty). */
export interface ShellChannel {
  /** False once the channel buffers more than it should: write again after `onDrain`. */
  write(data: string): boolean;
  onDrain(listener: () => void): void;
  resize(cols: number, rows: number): void;
  onData(listener: (chunk: Buffer) => void): void;
  /** Stop reading the device's output (SSH flow control then holds it back) until `resume`. */
  pause(): void;
  resume(): void;
  /** Once, when the shell ends (exit, the device closed it, or `close()`). */
  onClose(listener: () => void): void;
  close(): void;
}

export type ShellOpener = (target: SshTarget, size: { cols: number; rows: number }, timeoutMs: number) => Promise<ShellChannel>;

/**
 * The real one: ssh2 logs in with the image's credentials (the lab's devices are throwaway hosts made for
 * this lab, reached on the cluster network, so their host keys are not pinned) and asks for a shell with a pty.
 * ssh2 is imported when the first terminal opens, not at start-up: an api nobody opened a terminal on
 * does not hold its modules and crypto (several MiB of resident memory).
 */
export const openSshShell: ShellOpener = async (target, size, timeoutMs) => {
  const { Client } = (await import('ssh2')).default;
  return new Promise<ShellChannel>((resolve, reject) => {
    const client = new Client();
    const fail = (message: string): void => {
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end();
      reject(new TerminalRefusal(TerminalCloseCode.unavailable, message));
    };
    client.once('error', (error: Error & { level?: string }) =>
      fail(error.level === 'client-authentication' ? 'the device refused the lab login' : `cannot reach the device: ${error.message}`),
    );
    client.once('ready', () => {
      client.shell({ term: 'xterm-256color', cols: size.cols, rows: size.rows }, (error, stream) => {
        if (error) return fail(`the device opened no shell: ${error.message}`);
        client.removeAllListeners('error');
        client.on('error', () => stream.close());
        let closed = false;
        const closeListeners: (() => void)[] = [];
        const ended = (): void => {
          if (closed) return;
          closed = true;
          client.end();
          for (const listener of closeListeners) listener();
        };
        stream.on('close', ended);
        client.on('close', ended);
        stream.stderr.on('data', () => undefined);
        resolve({
          write: (data) => stream.write(data),
          onDrain: (listener) => void stream.on('drain', listener),
          resize: (cols, rows) => void stream.setWindow(rows, cols, 0, 0),
          onData: (listener) => void stream.on('data', listener).stderr.on('data', listener),
          pause: () => void stream.pause().stderr.pause(),
          resume: () => void stream.resume().stderr.resume(),
          onClose: (listener) => void closeListeners.push(listener),
          close: () => {
            stream.close();
            ended();
          },
        });
      });
    });
    client.connect({
      host: target.host,
      port: target.port,
      username: target.username,
      password: target.password,
      tryKeyboard: false,
      readyTimeout: timeoutMs,
      hostVerifier: () => true,
    });
    // An interactive session, as OpenSSH's client sets it: a keystroke is sent at once, not held by Nagle's algorithm.
    client.setNoDelay(true);
  });
};
