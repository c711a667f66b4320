import { connect, type Socket } from 'node:net';
import type ssh2 from 'ssh2';

/**
 * An SSH client on a fresh socket to host:port, torn down (listeners, session, socket) by the cleanup
 * it registers; `login` starts the handshake once the socket is connected.
 */
export type SshOpener = (
  target: { host: string; port: number; timeoutMs: number },
  onCleanup: (cleanup: () => void) => void,
) => { socket: Socket; client: ssh2.Client; login: (username: string, password: string) => void };

/**
 * The opener, with ssh2 imported on the first SSH probe or command rather than at start-up: an idle
 * healthchecker does not hold its modules and crypto (several MiB of resident memory).
 */
export async function sshOpener(): Promise<SshOpener> {
  const { Client } = (await import('ssh2')).default;
  return (target, onCleanup) => {
    // No Nagle: the handshake is rounds of small writes that would each wait for a delayed ACK.
    const socket = connect({ host: target.host, port: target.port, noDelay: true });
    const client = new Client();
    onCleanup(() => {
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end();
      socket.destroy();
    });
    const login = (username: string, password: string): void =>
      void client.connect({ sock: socket, username, password, tryKeyboard: false, readyTimeout: target.timeoutMs * 2, hostVerifier: () => true });
    return { socket, client, login };
  };
}
