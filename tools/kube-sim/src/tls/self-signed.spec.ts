import { X509Certificate } from 'node:crypto';
import { createServer, get } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from './self-signed.js';

/** What a client trusting only `ca` says when it asks `host` on the server: the body, or its TLS error. */
async function ask(serving: { cert: string; key: string }, ca: string, host: string, servername?: string): Promise<string> {
  const server = createServer(serving, (_request, response) => response.end('trusted'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<string>((resolve) => {
      get(
        { host, port, ca, ...(servername ? { servername } : {}), lookup: (_name, _options, done) => done(null, [{ address: '127.0.0.1', family: 4 }]) },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve(body));
        },
      ).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
  } finally {
    server.close();
  }
}

describe('selfSignedCertificate', () => {
  const serving = selfSignedCertificate('kube-sim', ['127.0.0.1', '::1', 'localhost']);

  it('is a v3 CA certificate for exactly the names given, signed by its own key', () => {
    const x509 = new X509Certificate(serving.cert);
    expect(x509.subject).toBe('CN=kube-sim');
    expect(x509.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
    expect(x509.ca).toBe(true);
    expect(x509.checkIssued(x509)).toBe(true);
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(new Date(x509.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(x509.validTo).getTime()).toBeGreaterThan(Date.now() + 365 * 86_400_000);
  });

  it('is new each time (own key and serial)', () => {
    const other = selfSignedCertificate('kube-sim', ['127.0.0.1']);
    expect(new X509Certificate(other.cert).serialNumber).not.toBe(new X509Certificate(serving.cert).serialNumber);
    expect(other.key).not.toBe(serving.key);
  });

  it('is trusted by a client that holds it, for its names only; another certificate is refused', async () => {
    expect(await ask(serving, serving.cert, '127.0.0.1')).toBe('trusted');
    expect(await ask(serving, serving.cert, 'localhost')).toBe('trusted');
    expect(await ask(serving, serving.cert, 'localhost', 'kube-sim.example')).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(await ask(serving, selfSignedCertificate('kube-sim', ['127.0.0.1']).cert, '127.0.0.1')).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
  });

  it('writes validity past 2049 as GeneralizedTime', () => {
    const long = new X509Certificate(selfSignedCertificate('kube-sim', ['127.0.0.1'], 100 * 365).cert);
    expect(new Date(long.validTo).getUTCFullYear()).toBeGreaterThan(2100);
  });
});
