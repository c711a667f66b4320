import { describe, expect, it } from 'vitest';
import { AddressRanges } from './address-ranges.js';

const ranges = new AddressRanges(['10.0.0.0/8', '127.0.0.0/8', 'fd00::/8']);

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

  it('refuses a malformed range at start, naming the key', () => {
    expect(() => new AddressRanges(['10.0.0.0'])).toThrow(/healthcheck.probeRanges: "10.0.0.0" is not a CIDR/);
    expect(() => new AddressRanges(['nonsense/8'])).toThrow(/not a CIDR/);
  });
});
