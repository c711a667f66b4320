import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import ssh2 from 'ssh2';
import { serveSshSession } from './ssh-session.js';
import type { ShellIdentity } from './sim-shell.js';

export type Protocol = 'ssh' | 'http' | 'tcp';

const SSH_PORTS = new Set([22, 830, 2222]);
const HTTP_PORTS = new Set([80, 443, 3000, 5000, 8000, 8080, 8081, 8443, 8888, 9000, 9090]);

/** How kube-sim answers on a declared port: SSH on 22/830, HTTP where the port looks like HTTP, else plain TCP. */
export const protocolOf = (port: number): Protocol => (SSH_PORTS.has(port) ? 'ssh' : HTTP_PORTS.has(port) ? 'http' : 'tcp');

export interface SshCredentials {
  /** user → password; empty: any login is accepted. */
  users: Record<string, string>;
}

/**
 * Real sockets behind simulated pods and services: one net.Server per address and port, handing the
 * connection to a shared SSH server, a shared HTTP server, or just holding it open.
 */
export class EndpointListeners {
  private readonly byOwner = new Map<string, { servers: Server[]; sockets: Set<Socket> }>();
  private readonly http: HttpServer;
  /** The endpoint each HTTP connection reached (whether it is still booting). */
  private readonly hostOf = new WeakMap<Socket, Omit<ShellIdentity, 'user'>>();
  private readonly hostKey: string;

  constructor(private readonly credentials: SshCredentials) {
    this.http = createHttpServer((request, response) => {
      request.resume();
      if (this.hostOf.get(request.socket)?.booting?.()) {
        response.writeHead(503, { 'Content-Type': 'text/plain', 'Retry-After': '1' });
        response.end('booting\n');
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end(`<html><body>kube-sim endpoint ${request.socket.localAddress}:${request.socket.localPort}</body></html>\n`);
    });
    // Not ssh2's own generator: about 1 ed25519 key in 256 it makes cannot be read back (mscdex/ssh2#1390).
    this.hostKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string;
  }

  /**
   * Starts listening for an object (pod or service uid) on address:ports; failures are reported, not thrown.
   * SSH logins get a shell answering as `host` (the object's name and image).
   */
  async listen(owner: string, address: string, ports: readonly number[], onError: (message: string) => void, host: Omit<ShellIdentity, 'user'> = { hostname: address, address }): Promise<void> {
    const entry = this.byOwner.get(owner) ?? { servers: [], sockets: new Set<Socket>() };
    const ssh = new ssh2.Server({ hostKeys: [this.hostKey] }, (client) => this.sshClient(client, host));
    this.byOwner.set(owner, entry);
    await Promise.all(
      [...new Set(ports)].map(
        (port) =>
          new Promise<void>((resolve) => {
            const protocol = protocolOf(port);
            const server = createServer((socket) => this.accept(protocol, socket, entry.sockets, ssh, host));
            server.once('error', (error) => {
              onError(`cannot listen on ${address}:${port}: ${error.message}`);
              resolve();
            });
            server.listen(port, address, () => resolve());
            entry.servers.push(server);
          }),
      ),
    );
  }

  close(owner: string): void {
    const entry = this.byOwner.get(owner);
    if (!entry) return;
    this.byOwner.delete(owner);
    for (const server of entry.servers) server.close();
    for (const socket of entry.sockets) socket.destroy();
  }

  closeAll(): void {
    for (const owner of [...this.byOwner.keys()]) this.close(owner);
    this.http.close();
  }

  isListening(owner: string): boolean {
    return this.byOwner.has(owner);
  }

  get listenerCount(): number {
    let count = 0;
    for (const entry of this.byOwner.values()) count += entry.servers.length;
    return count;
  }

  /** HTTP and SSH go to the shared servers; a plain TCP port sends a banner line (`<host> booting|ready`) and holds the connection. */
  private accept(protocol: Protocol, socket: Socket, sockets: Set<Socket>, ssh: ssh2.Server, host: Omit<ShellIdentity, 'user'>): void {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (protocol === 'http') {
      this.hostOf.set(socket, host);
      this.http.emit('connection', socket);
    } else if (protocol === 'ssh') ssh.injectSocket(socket);
    else {
      socket.on('data', () => undefined);
      socket.write(`${host.hostname} ${host.booting?.() ? 'booting' : 'ready'}\r\n`);
    }
  }

  private sshClient(client: ssh2.Connection, host: Omit<ShellIdentity, 'user'>): void {
    let user = 'antidote';
    client.on('error', () => client.end());
    client.on('authentication', (context) => {
      const users = this.credentials.users;
      if (Object.keys(users).length > 0 && !(context.method === 'password' && users[context.username] === context.password)) return context.reject(['password']);
      user = context.username || user;
      return context.accept();
    });
    client.on('ready', () => client.on('session', (accept) => serveSshSession(accept(), { ...host, user })));
  }
}
