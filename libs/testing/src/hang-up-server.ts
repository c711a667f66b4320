import { createServer, type AddressInfo } from 'node:net';

/** A TCP server on 127.0.0.1 that hangs up on every connection: a peer that speaks no protocol at all. */
export async function startHangUpServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
