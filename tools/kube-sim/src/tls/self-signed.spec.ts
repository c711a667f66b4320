import { X509Certificate } from 'node:crypto';
import { createServer, get } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { positiveSerial, selfSignedCertificate } from './self-signed.js';

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

  it('takes a serial that is a minimal positive INTEGER whatever the random bytes (a leading 0x00 before a byte under 0x80 is refused)', () => {
    for (const first of [0x00, 0x01, 0x3f, 0x40, 0x7f, 0x80, 0xbf, 0xff]) {
      for (const second of [0x00, 0x7f, 0x80, 0xff]) {
        const serial = positiveSerial(Buffer.from([first, second, 0x12, 0x34]));
        expect(serial[0], `from ${first}, ${second}`).toBeGreaterThanOrEqual(0x40);
        expect(serial[0], `from ${first}, ${second}`).toBeLessThanOrEqual(0x7f);
        expect(serial.subarray(1)).toEqual(Buffer.from([second, 0x12, 0x34]));
      }
    }
  });

  it('makes certificates and keys OpenSSL accepts, every time', () => {
    for (let i = 0; i < 300; i++) {
      const made = selfSignedCertificate('kube-sim', ['127.0.0.1']);
      expect(() => new X509Certificate(made.cert)).not.toThrow();
      expect(() => createServer({ cert: made.cert, key: made.key }).close()).not.toThrow();
    }
  });
});
