import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PortRegistry, sharedAfterOf, type Binding } from './port-registry.js';

/** A port free on every address right now (the kernel's pick for the wildcard). */
const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '0.0.0.0', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** What a connection to address:port gets: the line the endpoint wrote, or how it failed. */
const greeting = (address: string, port: number): Promise<string> =>
  new Promise((resolve) => {
    const socket = connect(port, address);
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += String(chunk)));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    socket.on('close', () => resolve(data || 'closed'));
  });

/** An endpoint that says where it was reached and hangs up. */
const says = (name: string) => (socket: Socket) => socket.end(`${name} at ${socket.localAddress}\n`);
const addresses = (count: number) => Array.from({ length: count }, (_, index) => `127.251.${Math.floor(index / 200)}.${(index % 200) + 1}`);
const noLoss = { lost: () => undefined };

describe('PortRegistry', () => {
  const bindings: Binding[] = [];
  const servers: Server[] = [];
  afterEach(() => {
    for (const binding of bindings.splice(0)) binding.close();
    for (const server of servers.splice(0)) server.close();
  });

  it('opens a socket per address while a port has few, each connection reaching its own endpoint; other addresses are refused', async () => {
    const registry = new PortRegistry();
    const port = await freePort();
    const [a, b, c] = addresses(3);
    bindings.push(
      await registry.bind(a, port, says('a'), { sharedAfter: 10, ...noLoss }),
      await registry.bind(b, port, says('b'), { sharedAfter: 10, ...noLoss }),
    );
    expect(registry.sockets).toBe(2);
    expect(await greeting(a, port)).toBe(`a at ${a}\n`);
    expect(await greeting(b, port)).toBe(`b at ${b}\n`);
    expect(await greeting(c, port)).toBe('ECONNREFUSED');
  });

  it('serves a port past the threshold from one wildcard socket, dispatching by the address connected to', async () => {
    const registry = new PortRegistry();
    const port = await freePort();
    const all = addresses(40);
    bindings.push(...(await Promise.all(all.map((address, index) => registry.bind(address, port, says(`e${index}`), { sharedAfter: 8, ...noLoss })))));
    expect(registry.sockets).toBe(1);
    for (const index of [0, 7, 8, 39]) expect(await greeting(all[index], port)).toBe(`e${index} at ${all[index]}\n`);
    // An address no endpoint holds: the connection is reset, nothing answers it.
    expect(await greeting('127.251.9.9', port)).toMatch(/^(ECONNRESET|closed)$/);
  });

  it('stops answering an address that is unbound, and frees the port once the last one goes', async () => {
    const registry = new PortRegistry();
    const port = await freePort();
    const all = addresses(5);
    const bound = await Promise.all(all.map((address) => registry.bind(address, port, says('x'), { sharedAfter: 2, ...noLoss })));
    bound[0].close();
    expect(await greeting(all[0], port)).toMatch(/^(ECONNRESET|closed)$/);
    expect(await greeting(all[1], port)).toBe(`x at ${all[1]}\n`);
    for (const binding of bound.slice(1)) binding.close();
    expect(registry.sockets).toBe(0);
    const other = createServer();
    servers.push(other);
    await new Promise<void>((resolve) => other.listen(port, all[2], resolve));
  });

  it('keeps a socket per address when the wildcard socket cannot be opened (another socket holds the port)', async () => {
    const registry = new PortRegistry();
    const port = await freePort();
    const holder = createServer();
    servers.push(holder);
    await new Promise<void>((resolve) => holder.listen(port, '127.251.200.1', resolve));
    const all = addresses(4);
    bindings.push(...(await Promise.all(all.map((address, index) => registry.bind(address, port, says(`e${index}`), { sharedAfter: 2, ...noLoss })))));
    expect(registry.sockets).toBe(4);
    for (const [index, address] of all.entries()) expect(await greeting(address, port)).toBe(`e${index} at ${address}\n`);
  });

  it('rejects a bind whose socket cannot be opened, naming why', async () => {
    const registry = new PortRegistry();
    const port = await freePort();
    const [a] = addresses(1);
    const holder = createServer();
    servers.push(holder);
    await new Promise<void>((resolve) => holder.listen(port, a, resolve));
    await expect(registry.bind(a, port, says('a'), { sharedAfter: 10, ...noLoss })).rejects.toThrow(/EADDRINUSE/);
    expect(registry.sockets).toBe(0);
  });
});

describe('sharedAfterOf', () => {
  it('takes a positive integer from the environment, else 2,048', () => {
    expect(sharedAfterOf('30000')).toBe(30_000);
    for (const value of [undefined, '', '0', '-5', '2.5', 'many']) expect(sharedAfterOf(value)).toBe(2048);
  });
});
