import { BlockList, isIP } from 'node:net';
import { ipv6Bytes, ipv6Text } from './ipv6.js';

/** An IPv4 address however it is spelled (`::ffff:a.b.c.d`, `::ffff:7f00:1`), else the address as given. */
export function plainAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  const bytes = ipv6Bytes(address);
  const mapped = bytes && bytes.subarray(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.subarray(12).join('.') : address;
}

/** Verdicts kept at most (then forgotten at once): a bound whatever addresses a client writes in its headers. */
const MAX_VERDICTS = 1024;

/**
 * The learner's address: the TCP peer, unless that peer is a trusted proxy; then `x-forwarded-for` is
 * walked from the right (each proxy appends the address it saw), skipping trusted proxies, and the first
 * untrusted address is the client. Entries left of it were written by the client and are never believed.
 * A malformed entry stops the walk at the last address believed.
 *
 * Every per-client limit counts a client by `keyOf`: an IPv4 address, or the IPv6 prefix
 * (`ipv6Prefix` bits, /64 by default) its address is in — one host holds a whole /64 and can take a new
 * address from it for each request.
 */
export class ClientIpResolver {
  private readonly trusted = new BlockList();
  /** Recent addresses' verdicts (a request asks of its peer twice, and a proxy is the peer of many). */
  private readonly verdicts = new Map<string, boolean>();
  constructor(
    trustedProxies: readonly string[],
    private readonly ipv6Prefix = 128,
  ) {
    for (const entry of trustedProxies) {
      const [address, bits] = entry.split('/');
      const family = isIP(address ?? '') === 6 ? 'ipv6' : 'ipv4';
      if (!address || isIP(address) === 0) throw new Error(`api.trustedProxies: "${entry}" is not an address or CIDR`);
      if (bits === undefined) this.trusted.addAddress(address, family);
      else this.trusted.addSubnet(address, Number(bits), family);
    }
  }

  isTrusted(address: string | undefined): boolean {
    const key = address ?? '';
    let trusted = this.verdicts.get(key);
    if (trusted === undefined) {
      const plain = plainAddress(key);
      const family = isIP(plain);
      trusted = family !== 0 && this.trusted.check(plain, family === 6 ? 'ipv6' : 'ipv4');
      if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.clear();
      this.verdicts.set(key, trusted);
    }
    return trusted;
  }

  resolve(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
    let client = plainAddress(peer ?? '');
    if (!client) return 'unknown';
    const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
    const hops = header
      .split(',')
      .map((entry) => plainAddress(entry.trim()))
      .filter((entry) => entry.length > 0);
    while (this.isTrusted(client) && hops.length > 0) {
      const next = hops.pop()!;
      if (isIP(next) === 0) break;
      client = next;
    }
    return client;
  }

  /** The client a per-client limit counts: an IPv4 address as is, an IPv6 one as its prefix (`2001:db8:1:2::/64`). */
  keyOf(address: string): string {
    if (isIP(address) !== 6 || this.ipv6Prefix >= 128) return address;
    const bytes = ipv6Bytes(address);
    if (!bytes) return address;
    for (let bit = this.ipv6Prefix; bit < 128; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
    return `${ipv6Text(bytes)}/${this.ipv6Prefix}`;
  }
}
