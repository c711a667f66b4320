import { generateKeyPairSync, sign } from 'node:crypto';
import ssh2, { type ParsedKey } from 'ssh2';

/**
 * kube-sim's SSH host key (ECDSA P-256), parsed once for every endpoint's server and signing with a key
 * object: ssh2 keeps a parsed key as PEM text and hands that to OpenSSL on every handshake, which parses it
 * again each time (about 14 times the cost of the signature itself). The key is made by node's own
 * generator, not ssh2's: about 1 ed25519 key in 256 ssh2 makes cannot be read back (mscdex/ssh2#1390).
 */
export function simHostKey(): ParsedKey {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const parsed = ssh2.utils.parseKey(privateKey.export({ type: 'sec1', format: 'pem' }));
  if (parsed instanceof Error) throw parsed;
  // The hash the caller names, else SHA-256 (ecdsa-sha2-nistp256's), as ssh2's own sign does.
  parsed.sign = (data, algo) => sign(algo ?? 'sha256', typeof data === 'string' ? Buffer.from(data) : data, privateKey);
  return parsed;
}
