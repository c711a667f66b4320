import { connect, type Socket } from 'node:net';
import ssh2 from 'ssh2';

/**
 * An SSH client on a fresh socket to host:port, torn down (listeners, session, socket) by the cleanup
 * it registers; `login` starts the handshake once the socket is connected.
 */
export function openSsh(
  target: { host: string; port: number; timeoutMs: number },
  onCleanup: (cleanup: () => void) => void,
): { socket: Socket; client: ssh2.Client; login: (username: string, password: string) => void } {
  const socket = connect({ host: target.host, port: target.port });
  const client = new ssh2.Client();
  onCleanup(() => {
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end();
    socket.destroy();
  });
  const login = (username: string, password: string): void =>
    void client.connect({ sock: socket, username, password, tryKeyboard: false, readyTimeout: target.timeoutMs * 2, hostVerifier: () => true });
  return { socket, client, login };
}
