import { parseConfig } from '@antidote/config';
import { describe, expect, it } from 'vitest';
import { AddressRanges } from './address-ranges.js';

const ranges = new AddressRanges(['10.0.0.0/8', '127.0.0.0/8', 'fd00::/8']);
/** The ranges a healthchecker probes when the operator narrows nothing. */
const defaults = new AddressRanges(parseConfig({ instanceId: 'x', curriculumDir: '/c' }, { env: {} }).config.healthcheck.probeRanges);

describe('AddressRanges', () => {
  it.each([
    ['10.96.0.12', undefined],
    ['127.1.2.3', undefined],
    ['::ffff:10.1.1.1', undefined],
    ['fd00:1::5', undefined],
    ['192.168.1.1', /outside the probe ranges/],
    ['8.8.8.8', /outside the probe ranges/],
    ['169.254.169.254', /link-local or metadata/],
    ['fd00:ec2::254', /link-local or metadata/],
    ['fe80::1', /link-local or metadata/],
    ['example.com', /not an IP address/],
    ['', /not an IP address/],
  ])('%s → %s', (host, expected) => {
    const refusal = ranges.refusal(host);
    if (expected === undefined) expect(refusal).toBeUndefined();
    else expect(refusal).toMatch(expected);
  });

  // Each inside a default range (100.64.0.0/10, fd00::/8, 169.254…), or written another way, yet refused with what it is.
  it.each([
    ['100.100.100.200', 'the Alibaba Cloud metadata service'],
    ['::ffff:100.100.100.200', 'the Alibaba Cloud metadata service'],
    ['::ffff:6464:64c8', 'the Alibaba Cloud metadata service'],
    ['64:ff9b::6464:64c8', 'the Alibaba Cloud metadata service'],
    ['169.254.169.254', 'link-local (the cloud metadata services of AWS, GCP, Azure, OpenStack, Oracle, Tencent…)'],
    ['::ffff:a9fe:a9fe', 'link-local (the cloud metadata services of AWS, GCP, Azure, OpenStack, Oracle, Tencent…)'],
    ['169.254.170.2', 'link-local (the cloud metadata services of AWS, GCP, Azure, OpenStack, Oracle, Tencent…)'],
    ['fd00:ec2::254', 'the AWS metadata service (IPv6)'],
    ['fd00:ec2:0:0:0:0:0:254', 'the AWS metadata service (IPv6)'],
    ['fd20:ce::254', 'the Google Cloud metadata service (IPv6)'],
    ['168.63.129.16', 'the Azure WireServer'],
    ['192.0.0.192', 'the Oracle Cloud Classic metadata service'],
    ['fe80::a9fe:a9fe', 'IPv6 link-local'],
  ])('refuses the metadata address %s in the default ranges, even listed by the operator: %s', (host, what) => {
    expect(defaults.refusal(host)).toBe(`${host} is a link-local or metadata address (${what}): never probed`);
    expect(new AddressRanges(['0.0.0.0/0', '::/0']).refusal(host)).toBe(`${host} is a link-local or metadata address (${what}): never probed`);
  });

  it('still probes the rest of the default ranges', () => {
    for (const host of ['100.64.0.1', '100.100.100.201', '10.96.0.10', '172.16.5.4', '192.168.1.1', '127.0.0.1', 'fd00:ec2::253', 'fd12::1'])
      expect([host, defaults.refusal(host)]).toEqual([host, undefined]);
  });

  it('refuses a malformed range at start, naming the key', () => {
    expect(() => new AddressRanges(['10.0.0.0'])).toThrow(/healthcheck.probeRanges: "10.0.0.0" is not a CIDR/);
    expect(() => new AddressRanges(['nonsense/8'])).toThrow(/not a CIDR/);
  });
});
