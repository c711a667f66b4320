import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import ssh2 from 'ssh2';

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
  private readonly ssh: ssh2.Server;

  constructor(private readonly credentials: SshCredentials) {
    this.http = createHttpServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end(`<html><body>kube-sim endpoint ${request.socket.localAddress}:${request.socket.localPort}</body></html>\n`);
    });
    const hostKey = ssh2.utils.generateKeyPairSync('ed25519').private;
    this.ssh = new ssh2.Server({ hostKeys: [hostKey], banner: undefined }, (client) => this.sshClient(client));
  }

  /** Starts listening for an object (pod or service uid) on address:ports; failures are reported, not thrown. */
  async listen(owner: string, address: string, ports: readonly number[], onError: (message: string) => void): Promise<void> {
    const entry = this.byOwner.get(owner) ?? { servers: [], sockets: new Set<Socket>() };
    this.byOwner.set(owner, entry);
    await Promise.all(
      [...new Set(ports)].map(
        (port) =>
          new Promise<void>((resolve) => {
            const protocol = protocolOf(port);
            const server = createServer((socket) => this.accept(protocol, socket, entry.sockets));
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

  private accept(protocol: Protocol, socket: Socket, sockets: Set<Socket>): void {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (protocol === 'http') this.http.emit('connection', socket);
    else if (protocol === 'ssh') this.ssh.injectSocket(socket);
    else socket.on('data', () => undefined);
  }

  private sshClient(client: ssh2.Connection): void {
    client.on('error', () => client.end());
    client.on('authentication', (context) => {
      const users = this.credentials.users;
      if (Object.keys(users).length === 0) return context.accept();
      if (context.method === 'password' && users[context.username] === context.password) return context.accept();
      return context.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        session.on('exec', (acceptExec, _reject, info) => {
          const stream = acceptExec();
          stream.write(`kube-sim: ${info.command}\n`);
          stream.exit(0);
          stream.end();
        });
        session.on('pty', (acceptPty) => acceptPty?.());
        session.on('shell', (acceptShell) => {
          const stream = acceptShell();
          stream.write('kube-sim shell\r\n$ ');
          stream.on('data', () => undefined);
        });
      });
    });
  }
}
