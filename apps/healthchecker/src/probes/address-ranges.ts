import { BlockList, isIP } from 'node:net';

/** Never probed, whatever the configuration says: link-local and cloud metadata (IPv4 and IPv6). */
export const NEVER_PROBED = ['169.254.0.0/16', 'fe80::/10', 'fd00:ec2::254/128'] as const;

const familyOf = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

function listOf(cidrs: readonly string[], key: string): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = '', bits] = cidr.split('/');
    const prefix = Number(bits);
    if (isIP(address) === 0 || bits === undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > (isIP(address) === 6 ? 128 : 32)) {
      throw new Error(`${key}: "${cidr}" is not a CIDR (address/prefix)`);
    }
    list.addSubnet(address, prefix, familyOf(address));
  }
  return list;
}

/**
 * The addresses the healthchecker may probe: inside the configured pod/service ranges, and never a
 * link-local or metadata address. Host names are refused (only addresses the scheduler wrote count).
 */
export class AddressRanges {
  private readonly allowed: BlockList;
  private readonly denied = listOf(NEVER_PROBED, 'built-in');

  constructor(private readonly cidrs: readonly string[]) {
    this.allowed = listOf(cidrs, 'healthcheck.probeRanges');
  }

  /** Why `host` may not be probed, or undefined when it may. */
  refusal(host: string): string | undefined {
    const plain = host.startsWith('::ffff:') && isIP(host.slice(7)) === 4 ? host.slice(7) : host;
    if (isIP(plain) === 0) return `${host} is not an IP address`;
    const family = familyOf(plain);
    if (this.denied.check(plain, family)) return `${host} is a link-local or metadata address`;
    if (!this.allowed.check(plain, family)) return `${host} is outside the probe ranges (healthcheck.probeRanges: ${this.cidrs.join(', ') || 'none'})`;
    return undefined;
  }
}
