import { createPublicKey, type KeyObject } from 'node:crypto';
import type ssh2 from 'ssh2';

/** Host keys kept parsed: far more than the endpoints a healthchecker probes at once. */
export const CACHED_HOST_KEYS = 256;

type Verify = (this: ssh2.ParsedKey, data: Buffer, signature: Buffer, algo?: string) => boolean | Error;

/**
 * Makes ssh2's client check each key exchange's signature with a parsed host key kept per key, instead of
 * handing OpenSSL the key's PEM text to parse again on every login (about two thirds of the check's CPU,
 * and the check is the largest single cost of a probe's handshake). The signature is checked as before,
 * by ssh2's own code, with the same key and hash: only the parse is shared. ssh2 builds a new key object
 * per handshake, so the hook is on their shared prototype; installed once per ssh2 module.
 */
export function cacheParsedHostKeys(utils: typeof ssh2.utils): void {
  const sample = utils.parseKey(`ssh-ed25519 ${Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(Buffer.alloc(32, 1))]).toString('base64')}`);
  if (sample instanceof Error) throw sample;
  const prototype = Object.getPrototypeOf(sample) as { verify: Verify; [HOOKED]?: true };
  const pemSymbol = Object.getOwnPropertySymbols(sample).find((symbol) => symbol.description === 'Public key PEM');
  if (prototype[HOOKED] || !pemSymbol || typeof prototype.verify !== 'function') return;
  const verify = prototype.verify;
  const parsed = new Map<string, KeyObject>();
  const keyOf = (pem: string): KeyObject | undefined => {
    let key = parsed.get(pem);
    if (key) return key;
    try {
      key = createPublicKey(pem);
    } catch {
      return undefined; // ssh2's own check then reports the bad key as it always did
    }
    if (parsed.size >= CACHED_HOST_KEYS) parsed.delete(parsed.keys().next().value!);
    parsed.set(pem, key);
    return key;
  };
  prototype[HOOKED] = true;
  prototype.verify = function (this: ssh2.ParsedKey, data, signature, algo) {
    const pem = this.getPublicPEM();
    const key = typeof pem === 'string' ? keyOf(pem) : undefined;
    // The same check on a view of this key whose public PEM is the parsed key (node's verify takes either).
    return verify.call(key ? (Object.create(this, { [pemSymbol]: { value: key } }) as ssh2.ParsedKey) : this, data, signature, algo);
  };
}

const HOOKED = Symbol('antidote parsed host keys');

const sshString = (bytes: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};
