import { connect, type Socket } from 'node:net';
import type ssh2 from 'ssh2';
import { cacheParsedHostKeys } from './ssh-host-key-cache.js';

/**
 * An SSH client on a fresh socket to host:port, torn down (listeners, session, socket) by the cleanup
 * it registers; `login` starts the handshake once the socket is connected.
 */
export type SshOpener = (
  target: { host: string; port: number; timeoutMs: number },
  onCleanup: (cleanup: () => void) => void,
) => { socket: Socket; client: ssh2.Client; login: (username: string, password: string) => void };

/**
 * The algorithms a probe prefers, ahead of ssh2's defaults (all still offered, in their order, for a
 * server that has none of these). A probe's cost is its key exchange: ECDH on P-256 runs on keys Node
 * keeps as raw bytes, where curve25519 (ssh2's first) encodes and decodes a DER key object each way,
 * about a third of a login's CPU; an RSA host key's signature is the cheapest to check. The probe
 * accepts any host key (it proves a login, not an identity), so neither choice weakens it.
 */
export const PROBE_ALGORITHMS: ssh2.Algorithms = {
  kex: { remove: 'ecdh-sha2-nistp256', prepend: 'ecdh-sha2-nistp256', append: [] },
  serverHostKey: { remove: 'rsa-sha2-256', prepend: 'rsa-sha2-256', append: [] },
};

let opener: Promise<SshOpener> | undefined;

/**
 * The opener, with ssh2 imported on the first SSH probe or command rather than at start-up: an idle
 * healthchecker does not hold its modules and crypto (several MiB of resident memory). Imported once.
 */
export function sshOpener(): Promise<SshOpener> {
  return (opener ??= openerOf(import('ssh2')));
}

async function openerOf(module: Promise<{ default: typeof ssh2 }>): Promise<SshOpener> {
  const { Client, utils } = (await module).default;
  cacheParsedHostKeys(utils);
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
      void client.connect({
        sock: socket,
        username,
        password,
        tryKeyboard: false,
        readyTimeout: target.timeoutMs * 2,
        hostVerifier: () => true,
        algorithms: PROBE_ALGORITHMS,
      });
    return { socket, client, login };
  };
}
