import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { simHostKey } from './host-key.js';

describe('simHostKey', () => {
  it('signs what its public key verifies, with the hash asked for or SHA-256', () => {
    const key = simHostKey();
    expect(key.type).toBe('ecdsa-sha2-nistp256');
    const publicKey = createPublicKey(key.getPublicPEM());
    const data = Buffer.from('exchange hash');
    expect(verify('sha256', data, publicKey, key.sign(data))).toBe(true);
    expect(verify('sha512', data, publicKey, key.sign(data, 'sha512'))).toBe(true);
    expect(verify('sha256', Buffer.from('other'), publicKey, key.sign(data))).toBe(false);
  });
});
