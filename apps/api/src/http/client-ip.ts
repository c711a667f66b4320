import { BlockList, isIP } from 'node:net';

const unmapped = (address: string): string => (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address);

/**
 * The learner's address: the TCP peer, unless that peer is a trusted proxy; then `x-forwarded-for` is
 * walked from the right (each proxy appends the address it saw), skipping trusted proxies, and the first
 * untrusted address is the client. Entries left of it were written by the client and are never believed.
 * A malformed entry stops the walk at the last address believed.
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
    let client = unmapped(peer ?? '');
    if (!client) return 'unknown';
    const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
    const hops = header.split(',').map((entry) => unmapped(entry.trim())).filter((entry) => entry.length > 0);
    while (this.isTrusted(client) && hops.length > 0) {
      const next = hops.pop()!;
      if (isIP(next) === 0) break;
      client = next;
    }
    return client;
  }
}
