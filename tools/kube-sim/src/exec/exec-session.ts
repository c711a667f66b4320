import type { WebSocket } from 'ws';
import { isShell, runCommand, SimShell, type ShellIdentity } from '../endpoints/sim-shell.js';

/** The stream channels of the `v4/v5.channel.k8s.io` WebSocket protocols (first byte of every message). */
export const Channel = {
  Stdin: 0,
  Stdout: 1,
  Stderr: 2,
  Error: 3,
  Resize: 4,
  /** v5: the client closed one of its streams (`[255, channel]`). */
  Close: 255,
} as const;
type ChannelNumber = (typeof Channel)[keyof typeof Channel];

export const EXEC_PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];

export interface ExecOptions {
  command: string[];
  stdin: boolean;
  tty: boolean;
}

/** The error channel's final Status, as the kubelet writes it (kubectl turns it into its exit code). */
export function exitStatus(command: readonly string[], code: number): unknown {
  if (code === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  };
}

/**
 * `kubectl exec` over a WebSocket: a shell (`sh`, `bash`, …) runs the simulated shell with the client's
 * stdin (a terminal with `-t`); any other command runs once. The exit status goes on the error channel,
 * then the socket closes.
 */
export function serveExec(socket: WebSocket, identity: ShellIdentity, options: ExecOptions): void {
  const send = (channel: ChannelNumber, text: string): void => {
    if (text && socket.readyState === socket.OPEN) socket.send(Buffer.concat([Buffer.from([channel]), Buffer.from(text, 'utf8')]));
  };
  let finished = false;
  const finish = (code: number): void => {
    if (finished) return;
    finished = true;
    send(Channel.Error, JSON.stringify(exitStatus(options.command, code)));
    socket.close(1000);
  };
  if (!isShell(options.command)) {
    const { output, code } = runCommand(options.command, identity);
    send(code === 127 && !options.tty ? Channel.Stderr : Channel.Stdout, output);
    return finish(code);
  }
  const shell = new SimShell(identity, { write: (text) => send(Channel.Stdout, text), exit: finish }, options.tty);
  if (!options.stdin) {
    shell.end();
    return;
  }
  socket.on('message', (data: Buffer) => {
    if (data.length === 0) return;
    if (data[0] === Channel.Stdin) shell.input(data.subarray(1));
    else if (data[0] === Channel.Close && data[1] === Channel.Stdin) shell.end();
  });
  socket.on('close', () => shell.end());
  shell.start();
}
