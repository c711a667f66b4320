import { createServer, type Server, type Socket } from 'node:net';

/** Takes a connection made to the address and port it was bound for. */
export type Accept = (socket: Socket) => void;

/** One address:port served in this process; `close` stops serving it. */
export interface Binding {
  close(): void;
}

/** Every IPv4 address of the machine: a socket bound here on a port receives the connections to any 127.x.y.z on it. */
export const WILDCARD = '0.0.0.0';

/**
 * Past this many addresses on one port in the process, the port is served by one wildcard socket (the
 * default of `sharedListenersAfter`). High, because the wildcard takes the port on every address of the
 * machine: another kube-sim beside this one (a test run, a benchmark) can no longer open that port for its
 * own pods. 2,048 keeps a 200-lesson burst on sockets of its own, and a few ports' worth of sockets well
 * under a 20,000-descriptor limit.
 */
export const DEFAULT_SHARED_AFTER = sharedAfterOf(process.env.KUBE_SIM_SHARED_LISTENERS_AFTER);

/**
 * The default as the environment sets it (`KUBE_SIM_SHARED_LISTENERS_AFTER`, a positive integer: how a
 * benchmark that starts kube-sim through another tool keeps every address on a socket of its own), else 2,048.
 */
export function sharedAfterOf(value: string | undefined): number {
  const count = Number(value);
  return value !== undefined && Number.isSafeInteger(count) && count > 0 ? count : 2048;
}

const listen = (port: number, address: string, onConnection: (socket: Socket) => void): Promise<Server> =>
  new Promise((resolve, reject) => {
    // TCP_NODELAY, as the daemons these ports stand for set it: an SSH handshake is rounds of small writes,
    // and with Nagle's algorithm each round waited for the peer's delayed ACK (~40 ms on loopback).
    const server = createServer({ noDelay: true }, onConnection);
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      // A failure after listening (none is expected) must not crash the process.
      server.on('error', () => undefined);
      resolve(server);
    });
  });

/** A connection for no bound address: reset at once (the closest a shared socket comes to refusing it). */
const refuse = (socket: Socket): void => void socket.resetAndDestroy();

/**
 * The listening sockets behind one port: one socket per bound address while there are few, then one
 * wildcard socket for all of them — each connection goes to the address it was made to
 * (`socket.localAddress`), a connection to any other address is reset. File descriptors stay one per port
 * however many pods and services answer on it.
 */
class PortGroup {
  private readonly bound = new Map<string, { accept: Accept; lost: (error: Error) => void }>();
  private readonly servers = new Map<string, Server>();
  /** Sockets of single addresses being opened (the move to a wildcard socket waits for them). */
  private readonly opening = new Set<Promise<Server>>();
  private wildcardServer?: Server;
  private wildcard?: Promise<boolean>;
  /** The wildcard socket could not be opened (a socket of another process on the port): addresses stay on their own sockets. */
  private wildcardRefused = false;

  constructor(
    readonly port: number,
    private readonly onEmpty: () => void,
  ) {}

  get sockets(): number {
    return this.servers.size + (this.wildcardServer ? 1 : 0);
  }

  async bind(address: string, accept: Accept, sharedAfter: number, lost: (error: Error) => void): Promise<Binding> {
    const entry = { accept, lost };
    this.bound.set(address, entry);
    const binding = { close: () => this.unbind(address, entry) };
    if (!this.wildcard && !this.wildcardRefused && this.bound.size > sharedAfter) this.wildcard = this.toWildcard();
    if (this.wildcard && (await this.wildcard)) return binding;
    if (this.bound.get(address) !== entry || this.servers.has(address)) return binding;
    const opening = listen(this.port, address, (socket) => this.dispatch(socket, address));
    this.opening.add(opening);
    try {
      const server = await opening;
      if (this.bound.get(address) === entry) this.servers.set(address, server);
      else server.close();
    } catch (error) {
      if (this.bound.get(address) === entry) this.bound.delete(address);
      this.emptied();
      throw error;
    } finally {
      this.opening.delete(opening);
    }
    return binding;
  }

  /** Moves every address of the port onto one wildcard socket; false (and the addresses back on their own sockets) when it cannot be opened. */
  private async toWildcard(): Promise<boolean> {
    await Promise.allSettled([...this.opening]);
    // A socket of this process on one address of the port keeps the wildcard from binding: close them first.
    const moved = [...this.servers.keys()];
    for (const address of moved) this.closeServer(address);
    try {
      const server = await listen(this.port, WILDCARD, (socket) => this.dispatch(socket, socket.localAddress));
      if (this.bound.size === 0) server.close();
      else this.wildcardServer = server;
      return true;
    } catch {
      this.wildcardRefused = true;
      this.wildcard = undefined;
      await Promise.all(moved.filter((address) => this.bound.has(address)).map((address) => this.reopen(address)));
      return false;
    }
  }

  private async reopen(address: string): Promise<void> {
    try {
      this.servers.set(address, await listen(this.port, address, (socket) => this.dispatch(socket, address)));
    } catch (error) {
      const entry = this.bound.get(address);
      this.bound.delete(address);
      entry?.lost(error as Error);
    }
  }

  private dispatch(socket: Socket, address: string | undefined): void {
    const entry = address === undefined ? undefined : this.bound.get(address);
    if (entry) entry.accept(socket);
    else refuse(socket);
  }

  private unbind(address: string, entry: object): void {
    if (this.bound.get(address) !== entry) return;
    this.bound.delete(address);
    this.closeServer(address);
    this.emptied();
  }

  /** The last address gone: the wildcard socket closes too, so the port is free again for anyone. */
  private emptied(): void {
    if (this.bound.size > 0) return;
    this.wildcardServer?.close();
    this.wildcardServer = undefined;
    this.wildcard = undefined;
    this.wildcardRefused = false;
    this.onEmpty();
  }

  private closeServer(address: string): void {
    this.servers.get(address)?.close();
    this.servers.delete(address);
  }
}

/**
 * The endpoint sockets of every kube-sim (and node agent) in this process, by port: several simulators in
 * one process share a port's wildcard socket, each answering on its own address range.
 */
export class PortRegistry {
  private readonly ports = new Map<number, PortGroup>();

  /**
   * Serves address:port with `accept`; rejects when no socket can be opened for it (EMFILE, EACCES,
   * EADDRINUSE). `lost` is told when serving it stopped later (the move to a wildcard socket failed and
   * its own socket could not be opened again).
   */
  bind(address: string, port: number, accept: Accept, options: { sharedAfter: number; lost: (error: Error) => void }): Promise<Binding> {
    let group = this.ports.get(port);
    if (!group) {
      group = new PortGroup(port, () => {
        if (this.ports.get(port) === group) this.ports.delete(port);
      });
      this.ports.set(port, group);
    }
    return group.bind(address, accept, options.sharedAfter, options.lost);
  }

  /** Listening sockets open for endpoints. */
  get sockets(): number {
    let count = 0;
    for (const group of this.ports.values()) count += group.sockets;
    return count;
  }
}

/** The process's endpoint sockets. */
export const processPorts = new PortRegistry();
