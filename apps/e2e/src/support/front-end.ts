import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Debian's Chromium, headless, as CI installs it (tools/scripts/ensure-deps.sh). */
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
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

/**
 * antidote-web's own site with the api behind a path prefix, as a reverse proxy serves it: the page at
 * `/`, `/acore/*` forwarded to `api` without the prefix, with X-Forwarded-Host, -Proto and -For (the
 * proxy is on loopback, which the api trusts by default). Every call of the page to `<site>/acore` is
 * same-origin.
 */
export async function servePrefixProxy(api: string, host = '127.0.0.3', prefix = '/acore'): Promise<{ url: string; stop(): Promise<void> }> {
  const target = new URL(api);
  const server: Server = createServer((incoming, outgoing) => {
    const url = incoming.url ?? '/';
    if (!url.startsWith(`${prefix}/`)) {
      outgoing.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      outgoing.end('<!doctype html><title>antidote-web</title><p>lab</p>');
      return;
    }
    const headers = {
      ...incoming.headers,
      host: target.host,
      'x-forwarded-host': incoming.headers.host ?? '',
      'x-forwarded-proto': 'http',
      'x-forwarded-for': incoming.socket.remoteAddress ?? '',
    };
    const upstream = request({ host: target.hostname, port: target.port, method: incoming.method, path: url.slice(prefix.length), headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
