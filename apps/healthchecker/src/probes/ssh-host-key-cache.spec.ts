import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import ssh2 from 'ssh2';
import { describe, expect, it } from 'vitest';
import { cacheParsedHostKeys } from './ssh-host-key-cache.js';

/** The host key as ssh2's client meets it in a key exchange: a public key parsed from its SSH wire form. */
function hostKeyOf(privateKey: KeyObject, format: 'sec1' | 'pkcs1'): ssh2.ParsedKey {
  const parsed = ssh2.utils.parseKey(privateKey.export({ type: format, format: 'pem' }));
  if (parsed instanceof Error) throw parsed;
  const wire = parsed.getPublicSSH();
  const key = ssh2.utils.parseKey(`${parsed.type} ${wire.toString('base64')}`);
  if (key instanceof Error) throw key;
  return key;
}

describe('cacheParsedHostKeys', () => {
  // The unit tier shares modules between files: another file's SSH probe may have installed it already.
  cacheParsedHostKeys(ssh2.utils);
  const exchangeHash = Buffer.from('the exchange hash of one handshake');

  it('checks an ECDSA host key signature as before: the right one passes, every other fails, key after key', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const signature = sign('sha256', exchangeHash, privateKey);
    for (let handshake = 0; handshake < 3; handshake++) {
      const key = hostKeyOf(privateKey, 'sec1');
      expect(key.verify(exchangeHash, signature)).toBe(true);
      expect(key.verify(Buffer.from('another exchange'), signature)).toBe(false);
    }
    // Another server's key, same signature: refused, not answered from the first key.
    const other = hostKeyOf(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey, 'sec1');
    expect(other.verify(exchangeHash, signature)).toBe(false);
  });

  it('keeps the hash a key exchange names (rsa-sha2-256 on an RSA key)', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = hostKeyOf(privateKey, 'pkcs1');
    expect(key.verify(exchangeHash, sign('sha256', exchangeHash, privateKey), 'sha256')).toBe(true);
    expect(key.verify(exchangeHash, sign('sha512', exchangeHash, privateKey), 'sha256')).toBe(false);
    expect(key.verify(exchangeHash, sign('sha512', exchangeHash, privateKey), 'sha512')).toBe(true);
  });

  it('hooks ssh2 once however often it is installed', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const hooked = hostKeyOf(privateKey, 'sec1').verify;
    cacheParsedHostKeys(ssh2.utils);
    cacheParsedHostKeys(ssh2.utils);
    const key = hostKeyOf(privateKey, 'sec1');
    expect(key.verify).toBe(hooked);
    expect(key.verify(exchangeHash, sign('sha256', exchangeHash, privateKey))).toBe(true);
  });
});
