import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import ssh2 from 'ssh2';
import { afterAll, describe, expect, it } from 'vitest';
import { sshProbe } from './ssh.probe.js';

type Negotiated = ssh2.NegotiatedAlgorithms;

const ecdsaKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string;
const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
const servers: ssh2.Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))));

/** An SSH server taking any login, with these host keys and algorithms; `negotiated` holds what each handshake agreed on. */
async function sshServer(hostKeys: string[], algorithms?: ssh2.Algorithms): Promise<{ port: number; negotiated: Negotiated[] }> {
  const negotiated: Negotiated[] = [];
  const server = new ssh2.Server({ hostKeys, ...(algorithms ? { algorithms } : {}) }, (client) => {
    client.on('error', () => undefined);
    client.on('handshake', (agreed) => negotiated.push(agreed));
    client.on('authentication', (context) => context.accept());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.address() as AddressInfo).port, negotiated };
}

const probe = (port: number) => sshProbe({ host: '127.0.0.1', port, timeoutMs: 15_000 }, { username: 'antidote', password: 'antidotepassword' });

describe('the SSH probe’s algorithms', () => {
  it('prefers ECDH on P-256 and an RSA host key when the server offers them among others', async () => {
    const server = await sshServer([ecdsaKey, rsaKey]);
    expect(await probe(server.port)).toMatchObject({ verdict: 'reachable', reachable: true });
    expect(server.negotiated).toHaveLength(1);
    expect(server.negotiated[0]).toMatchObject({ kex: 'ecdh-sha2-nistp256', serverHostKey: 'rsa-sha2-256' });
  });

  it('still logs in to a server that has none of them: curve25519 only, an ECDSA host key only', async () => {
    const server = await sshServer([ecdsaKey], { kex: ['curve25519-sha256'] });
    expect(await probe(server.port)).toMatchObject({ verdict: 'reachable', reachable: true });
    expect(server.negotiated[0]).toMatchObject({ kex: 'curve25519-sha256', serverHostKey: 'ecdsa-sha2-nistp256' });
  });
});
