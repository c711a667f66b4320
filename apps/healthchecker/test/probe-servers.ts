import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import ssh2 from 'ssh2';

/** Real servers on loopback for probe tests; every one is closed by `closeAll`. */
export class ProbeServers {
  private readonly servers: (Server | HttpServer)[] = [];
  private readonly sockets = new Set<Socket>();
  /** Connections open right now / the most at once, over all servers here. */
  open = 0;
  peakOpen = 0;
  /** Connections accepted so far, by server. */
  private readonly accepted = new Map<Server | HttpServer, number>();
  // Not ssh2's own generator: about 1 ed25519 key in 256 it makes cannot be read back (mscdex/ssh2#1390).
  private readonly hostKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string;

  private track(server: Server | HttpServer): void {
    server.on('connection', (socket: Socket) => {
      this.accepted.set(server, (this.accepted.get(server) ?? 0) + 1);
      this.sockets.add(socket);
      this.open++;
      this.peakOpen = Math.max(this.peakOpen, this.open);
      socket.on('close', () => {
        this.sockets.delete(socket);
        this.open--;
      });
      socket.on('error', () => undefined);
    });
    this.servers.push(server);
  }

  private async listen(server: Server | HttpServer, host: string): Promise<number> {
    this.track(server);
    await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
    return (server.address() as AddressInfo).port;
  }

  /** How many connections the server listening on `port` has accepted so far. */
  connectionsTo(port: number): number {
    const server = this.servers.find((s) => (s.address() as AddressInfo | null)?.port === port);
    return server === undefined ? 0 : (this.accepted.get(server) ?? 0);
  }

  /** An SSH server accepting only user/password. */
  ssh(host = '127.0.0.1', user = 'antidote', password = 'antidotepassword'): Promise<number> {
    const server = new ssh2.Server({ hostKeys: [this.hostKey] }, (client) => {
      client.on('error', () => undefined);
      client.on('authentication', (context) =>
        context.method === 'password' && context.username === user && context.password === password ? context.accept() : context.reject(['password']),
      );
    });
    return this.listen(server, host);
  }

  /**
   * An SSH server (user/password) running `exec` requests: each command is answered by `answer` (called
   * once per command, so a test can count the attempts and decide when the endpoint is ready); an answer
   * of `null` is a command that never ends (its channel stays open).
   */
  sshCommands(answer: (command: string) => string | null, host = '127.0.0.1', user = 'antidote', password = 'antidotepassword'): Promise<number> {
    const server = new ssh2.Server({ hostKeys: [this.hostKey] }, (client) => {
      client.on('error', () => undefined);
      client.on('authentication', (context) =>
        context.method === 'password' && context.username === user && context.password === password ? context.accept() : context.reject(['password']),
      );
      client.on('ready', () =>
        client.on('session', (accept) =>
          accept().on('exec', (acceptExec, _reject, info) => {
            const stream = acceptExec();
            const output = answer(info.command);
            if (output === null) return;
            stream.write(output);
            stream.exit(0);
            stream.end();
          }),
        ),
      );
    });
    return this.listen(server, host);
  }

  /** Sends `banner` (a line) on connecting, then holds the connection open. */
  bannerLine(banner: () => string, host = '127.0.0.1'): Promise<number> {
    return this.listen(
      createServer((socket) => socket.resume().write(`${banner()}\r\n`)),
      host,
    );
  }

  /** Writes an SSH banner, then never says anything again. */
  bannerThenSilence(host = '127.0.0.1'): Promise<number> {
    return this.listen(
      createServer((socket) => socket.resume().write('SSH-2.0-OpenSSH_9.2\r\n')),
      host,
    );
  }

  /** Accepts, reads, and never sends a byte. */
  silent(host = '127.0.0.1'): Promise<number> {
    return this.listen(
      createServer((socket) => socket.resume()),
      host,
    );
  }

  /** Answers every request with `status`. */
  http(status: number, host = '127.0.0.1'): Promise<number> {
    return this.listen(
      createHttpServer((_request, response) => response.writeHead(status).end('body')),
      host,
    );
  }

  /** Starts answering HTTP 200 on a given port (a server that comes up late). */
  async httpOn(port: number, host = '127.0.0.1'): Promise<void> {
    const server = createHttpServer((_request, response) => response.writeHead(200).end('up'));
    this.track(server);
    await new Promise<void>((resolve) => server.listen(port, host, () => resolve()));
  }

  /** A port that refuses connections (was listening, now closed). */
  async closedPort(host = '127.0.0.1'): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  async closeAll(): Promise<void> {
    // An ssh2 server's 'connection' is its client object (end()), a net/http server's a socket (destroy()).
    for (const socket of this.sockets) {
      const connection = socket as Partial<Socket> & { end?: () => void };
      if (typeof connection.destroy === 'function') connection.destroy();
      else connection.end?.();
    }
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}
