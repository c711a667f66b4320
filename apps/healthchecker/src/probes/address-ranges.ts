import { BlockList, isIP, SocketAddress } from 'node:net';
import { METADATA_SERVICES } from '@antidote/config';

/**
 * Never probed, whatever the configuration says: link-local (IPv4 and IPv6) and the cloud metadata
 * services, each with what it is (the refusal says it). IPv4 entries also stand for their IPv4-mapped
 * (`::ffff:a.b.c.d`, matched by BlockList itself) and NAT64 (`64:ff9b::/96`) spellings.
 */
export const NEVER_PROBED: readonly { cidr: string; what: string }[] = [
  { cidr: '169.254.0.0/16', what: 'link-local (the cloud metadata services of AWS, GCP, Azure, OpenStack, Oracle, Tencent…)' },
  { cidr: 'fe80::/10', what: 'IPv6 link-local' },
  ...METADATA_SERVICES.filter(({ cidr }) => !cidr.startsWith('169.254.')).map(({ cidr, service }) => ({ cidr, what: service })),
];

const familyOf = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** The well-known NAT64 prefix's spelling of an IPv4 CIDR (RFC 6052): `64:ff9b::a.b.c.d/(96+n)`. */
function nat64(cidr: string): string {
  const [address, bits] = cidr.split('/');
  return `64:ff9b::${address}/${96 + Number(bits)}`;
}

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
  private readonly denied = NEVER_PROBED.map(({ cidr, what }) => ({ what, cidrs: isIP(cidr.split('/')[0]) === 4 ? [cidr, nat64(cidr)] : [cidr] }));
  private readonly deniedLists = this.denied.map(({ what, cidrs }) => ({ what, list: listOf(cidrs, 'built-in') }));
  /** Every never-probed range in one list: a single check for an address in none of them (nearly every one). */
  private readonly anyDenied = listOf(
    this.denied.flatMap(({ cidrs }) => cidrs),
    'built-in',
  );

  constructor(private readonly cidrs: readonly string[]) {
    this.allowed = listOf(cidrs, 'healthcheck.probeRanges');
  }

  /** Why `host` may not be probed, or undefined when it may. */
  refusal(host: string): string | undefined {
    const plain = host.startsWith('::ffff:') && isIP(host.slice(7)) === 4 ? host.slice(7) : host;
    if (isIP(plain) === 0) return `${host} is not an IP address`;
    // One parsed address for every list (a string is parsed again by each check).
    const address = new SocketAddress({ address: plain, family: familyOf(plain) });
    const denied = this.anyDenied.check(address) ? this.deniedLists.find(({ list }) => list.check(address)) : undefined;
    if (denied) return `${host} is a link-local or metadata address (${denied.what}): never probed`;
    if (!this.allowed.check(address)) return `${host} is outside the probe ranges (healthcheck.probeRanges: ${this.cidrs.join(', ') || 'none'})`;
    return undefined;
  }
}
