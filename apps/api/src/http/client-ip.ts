import { BlockList, isIP } from 'node:net';

const unmapped = (address: string): string => (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address);

/**
 * The learner's address: the TCP peer, or — only when that peer is a trusted proxy — the first
 * `x-forwarded-for` entry. No header, a malformed one, or an untrusted peer all fall back to the peer.
 */
export class ClientIpResolver {
  private readonly trusted = new BlockList();

  constructor(trustedProxies: readonly string[]) {
    for (const entry of trustedProxies) {
      const [address, bits] = entry.split('/');
      const family = isIP(address ?? '') === 6 ? 'ipv6' : 'ipv4';
      if (!address || isIP(address) === 0) throw new Error(`api.trustedProxies: "${entry}" is not an address or CIDR`);
      if (bits === undefined) this.trusted.addAddress(address, family);
      else this.trusted.addSubnet(address, Number(bits), family);
    }
  }

  isTrusted(address: string): boolean {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && this.trusted.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }

  resolve(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
    const address = unmapped(peer ?? '');
    if (!this.isTrusted(address)) return address || 'unknown';
    const header = Array.isArray(forwardedFor) ? forwardedFor[0] : forwardedFor;
    const first = header?.split(',')[0]?.trim();
    return first && isIP(unmapped(first)) !== 0 ? unmapped(first) : address;
  }
}
