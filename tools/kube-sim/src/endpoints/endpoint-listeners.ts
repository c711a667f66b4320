import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import ssh2 from 'ssh2';
import type { BootStage } from './boot-profile.js';
import { simHostKey } from './host-key.js';
import { DEFAULT_SHARED_AFTER, processPorts, type Binding } from './port-registry.js';
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

/** Whom an endpoint's listeners answer for: its shell's identity, where its boot stands, who hears of its connections. */
export interface EndpointHost extends Omit<ShellIdentity, 'user' | 'booting'> {
  /** Where the device's boot stands (absent: ready). */
  stage?: () => BootStage;
  /** Told of each connection accepted, with the port and the boot stage it found. */
  connected?: (port: number, stage: BootStage) => void;
}

const stageOf = (host: EndpointHost): BootStage => host.stage?.() ?? 'ready';

export interface ListenerOptions {
  /** Past this many addresses on one port in the process, one wildcard socket serves the port (see PortRegistry). */
  sharedAfter?: number;
}

/**
 * Real sockets behind simulated pods and services (through the process's PortRegistry: a socket per
 * address and port, or one per port at scale), handing each connection to a shared HTTP server, an SSH
 * server of the endpoint, or just holding it open.
 */
export class EndpointListeners {
  private readonly byOwner = new Map<string, { bindings: Binding[]; sockets: Set<Socket> }>();
  private readonly http: HttpServer;
  /** The endpoint each HTTP connection reached (whether it is still booting). */
  private readonly hostOf = new WeakMap<Socket, EndpointHost>();
  private readonly hostKey: ssh2.ParsedKey;
  private readonly sharedAfter: number;

  constructor(
    private readonly credentials: SshCredentials,
    options: ListenerOptions = {},
  ) {
    this.sharedAfter = options.sharedAfter ?? DEFAULT_SHARED_AFTER;
    this.http = createHttpServer((request, response) => {
      request.resume();
      const host = this.hostOf.get(request.socket);
      if (host && stageOf(host) !== 'ready') {
        response.writeHead(503, { 'Content-Type': 'text/plain', 'Retry-After': '1' });
        response.end('booting\n');
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end(`<html><body>kube-sim endpoint ${request.socket.localAddress}:${request.socket.localPort}</body></html>\n`);
    });
    this.hostKey = simHostKey();
  }

  /**
   * Starts listening for an object (pod or service uid) on address:ports. Resolves to the ports that could
   * not be opened, each with why (empty: all answer); `onLost` is told of a port that stopped answering later.
   * SSH logins get a shell answering as `host` (the object's name and image); each connection meets the
   * stage of its boot (see BootProfile).
   */
  async listen(
    owner: string,
    address: string,
    ports: readonly number[],
    onLost: (message: string) => void,
    host: EndpointHost = { hostname: address, address },
  ): Promise<string[]> {
    const entry = this.byOwner.get(owner) ?? { bindings: [], sockets: new Set<Socket>() };
    this.byOwner.set(owner, entry);
    let ssh: ssh2.Server | undefined;
    const sshServer = () => (ssh ??= new ssh2.Server({ hostKeys: [{ key: this.hostKey }] }, (client) => this.sshClient(client, host)));
    const failures = await Promise.all(
      [...new Set(ports)].map(async (port) => {
        const protocol = protocolOf(port);
        const accept = (socket: Socket) => this.accept(protocol, port, socket, entry.sockets, sshServer, host);
        const lost = (error: Error) => onLost(`stopped listening on ${address}:${port}: ${error.message}`);
        try {
          const binding = await processPorts.bind(address, port, accept, { sharedAfter: this.sharedAfter, lost });
          if (this.byOwner.get(owner) === entry) entry.bindings.push(binding);
          else binding.close();
          return undefined;
        } catch (error) {
          return `cannot listen on ${address}:${port}: ${(error as Error).message}`;
        }
      }),
    );
    return failures.filter((failure): failure is string => failure !== undefined);
  }

  close(owner: string): void {
    const entry = this.byOwner.get(owner);
    if (!entry) return;
    this.byOwner.delete(owner);
    for (const binding of entry.bindings) binding.close();
    for (const socket of entry.sockets) socket.destroy();
  }

  closeAll(): void {
    for (const owner of [...this.byOwner.keys()]) this.close(owner);
    this.http.close();
  }

  isListening(owner: string): boolean {
    return this.byOwner.has(owner);
  }

  /** Addresses and ports answering (not sockets: at scale one wildcard socket serves a port). */
  get listenerCount(): number {
    let count = 0;
    for (const entry of this.byOwner.values()) count += entry.bindings.length;
    return count;
  }

  /**
   * HTTP and SSH go to the shared servers; a plain TCP port sends a banner line (`<host> booting|ready`) and
   * holds the connection. While the device's port is not up yet (boot stage `down`), every connection is
   * accepted and closed at once, as the port forwarder in front of a virtual device's VM does.
   */
  private accept(protocol: Protocol, port: number, socket: Socket, sockets: Set<Socket>, ssh: () => ssh2.Server, host: EndpointHost): void {
    const stage = stageOf(host);
    host.connected?.(port, stage);
    if (stage === 'down') {
      socket.on('error', () => undefined);
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (protocol === 'http') {
      this.hostOf.set(socket, host);
      this.http.emit('connection', socket);
    } else if (protocol === 'ssh') ssh().injectSocket(socket);
    else {
      socket.on('data', () => undefined);
      socket.write(`${host.hostname} ${stage === 'ready' ? 'ready' : 'booting'}\r\n`);
    }
  }

  /** An SSH connection: before its device's login works (boot stage `login`) it is ended at authentication. */
  private sshClient(client: ssh2.Connection, host: EndpointHost): void {
    let user = 'antidote';
    client.on('error', () => client.end());
    client.on('authentication', (context) => {
      if (stageOf(host) === 'login' || stageOf(host) === 'down') return void client.end();
      const users = this.credentials.users;
      if (Object.keys(users).length > 0 && !(context.method === 'password' && users[context.username] === context.password))
        return context.reject(['password']);
      user = context.username || user;
      return context.accept();
    });
    const identity: Omit<ShellIdentity, 'user'> = {
      hostname: host.hostname,
      address: host.address,
      image: host.image,
      booting: () => stageOf(host) !== 'ready',
    };
    client.on('ready', () => client.on('session', (accept) => serveSshSession(accept(), { ...identity, user })));
  }
}
