import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Debian's Chromium, headless, as CI installs it (tools/scripts/ensure-deps.sh). */
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

/**
 * A front-end's origin: an empty page served on `host` (another loopback address than the api's
 * 127.0.0.1, so the browser treats every call to the api as cross-origin and enforces CORS).
 */
export async function serveFrontEnd(host = '127.0.0.2'): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>antidote-web</title><p>lab</p>');
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
