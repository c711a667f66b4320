import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { loadConfig } from '@antidote/config';
import { describe, expect, it } from 'vitest';
import { canonicalPath, canonicalTarget } from './canonical-path.js';
import { ClientIpResolver, plainAddress } from './client-ip.js';
import { insecureSettings } from './edge.js';
import { isAdminPath, isCorsPath, isOpsPath, isStreamPath } from './edge-paths.js';
import { ipv6Bytes, ipv6Text } from './ipv6.js';
import { hostnameOf, RequestSite } from './request-site.js';

describe('canonicalPath: one spelling per path', () => {
  it.each([
    ['/exp/lesson', '/exp/lesson'],
    ['/exp/lesson/', '/exp/lesson'],
    ['//exp///lesson//', '/exp/lesson'],
    ['/exp/%6cesson', '/exp/lesson'],
    ['/exp/%6C%65sson', '/exp/lesson'],
    ['/exp/%7e%2d%2E%5f', '/exp/~-._'],
    ['/EXP/Lesson', '/EXP/Lesson'],
    ['/exp/./lesson/.', '/exp/lesson'],
    ['/exp/x/../lesson', '/exp/lesson'],
    ['/exp/lesson/%2e%2e/%2E%2E/exp/admin', '/exp/admin'],
    ['/../../exp', '/exp'],
    ['/exp/a%2fb', '/exp/a%2Fb'],
    ['/exp/a%20b%3b', '/exp/a%20b%3B'],
    ['/exp/%25', '/exp/%25'],
    ['/', '/'],
    ['/.', '/'],
  ])('%s → %s', (path, canonical) => {
    expect(canonicalPath(path)).toBe(canonical);
  });

  it.each(['/exp/lesson;x=1', '/exp\\lesson', '/exp/%zz', '/exp/%4', '/exp/%00', '/exp/a b', '/exp/\u00e9', '*', 'http://host/exp', ''])(
    'refuses %j',
    (path) => {
      expect(canonicalPath(path)).toBeUndefined();
    },
  );

  it('keeps the query as sent', () => {
    expect(canonicalTarget('/exp//lesson/?Category=a%2Fb&x=..')).toBe('/exp/lesson?Category=a%2Fb&x=..');
    expect(canonicalTarget('/exp/%zz?x=1')).toBeUndefined();
  });

  it('classifies canonical paths for every check', () => {
    expect([isOpsPath('/healthz'), isOpsPath('/healthz/x'), isOpsPath('/exp/healthz')]).toEqual([true, false, false]);
    expect([isStreamPath('/exp/livelesson/abc/events'), isStreamPath('/x/events'), isStreamPath('/exp/livelesson/a/b/events')]).toEqual([true, false, false]);
    expect([isAdminPath('/exp/admin'), isAdminPath('/exp/admin/pools'), isAdminPath('/exp/administrator')]).toEqual([true, true, false]);
    expect([isCorsPath('/exp/lesson'), isCorsPath('/exp/admin/pools'), isCorsPath('/expx'), isCorsPath('/labs')]).toEqual([true, false, false, false]);
  });
});

describe('client addresses: one client however it is spelled', () => {
  it('reads an IPv4 address in its IPv6 spellings as IPv4', () => {
    expect(['::ffff:192.0.2.1', '::FFFF:c000:201', '0:0:0:0:0:ffff:192.0.2.1', '192.0.2.1', '2001:db8::1'].map(plainAddress)).toEqual([
      '192.0.2.1',
      '192.0.2.1',
      '192.0.2.1',
      '192.0.2.1',
      '2001:db8::1',
    ]);
  });

  it.each([
    [64, '2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    [64, '2001:0DB8:0001:0002::ffff', '2001:db8:1:2::/64'],
    [64, 'fe80::1%eth0', 'fe80::/64'],
    [48, '2001:db8:1:2::1', '2001:db8:1::/48'],
    [56, '2001:db8:1:2ff::1', '2001:db8:1:200::/56'],
    [128, '2001:db8::1', '2001:db8::1'],
    [64, '192.0.2.1', '192.0.2.1'],
  ])('keyOf with a /%i prefix: %s → %s', (prefix, address, key) => {
    expect(new ClientIpResolver([], prefix).keyOf(address)).toBe(key);
  });

  it('writes IPv6 addresses as RFC 5952 does', () => {
    for (const [address, text] of [
      ['2001:0db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
      ['0:0:0:0:0:0:0:0', '::'],
      ['1:0:2:0:3:0:4:0', '1:0:2:0:3:0:4:0'],
      ['::1', '::1'],
      ['1::', '1::'],
    ]) {
      expect(ipv6Text(ipv6Bytes(address)!), address).toBe(text);
    }
    expect(ipv6Bytes('not-an-address')).toBeUndefined();
  });
});

describe('RequestSite: the hosts the api answers to, and its own origin', () => {
  const proxies = new ClientIpResolver(['10.0.0.0/8']);
  const request = (headers: Record<string, string>, peer = '203.0.113.9') => ({ headers, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;
  const site = new RequestSite(['labs.example.org', '*.example.net'], '192.0.2.10', proxies);

  it.each([
    ['192.0.2.10:8086', true],
    ['192.0.2.10', true],
    ['192.0.2.11:8086', false],
    ['localhost:8086', true],
    ['api.localhost', true],
    ['127.8.9.10', true],
    ['[::1]:8086', true],
    ['[::ffff:127.0.0.1]:8086', true],
    ['LABS.Example.org.', true],
    ['labs.example.org:443', true],
    ['a.b.example.net', true],
    ['example.net', false],
    ['evilexample.net', false],
    ['labs.example.org.evil.test', false],
    ['evil.test', false],
    ['evil.test@labs.example.org', false],
    ['evil.test/labs.example.org', false],
  ] as const)('Host %s: %s', (host, allowed) => {
    expect(site.hostAllowed(request({ host }))).toBe(allowed);
  });

  it('believes X-Forwarded-Host and -Proto from a trusted proxy only (its right-most entry)', () => {
    const forwarded = { host: '10.1.1.1:8086', 'x-forwarded-host': 'evil.test, front.example.com', 'x-forwarded-proto': 'https' };
    expect(site.hostAllowed(request(forwarded, '10.2.3.4'))).toBe(true);
    expect(site.ownOrigin(request(forwarded, '10.2.3.4'))).toBe('https://front.example.com');
    expect(site.hostAllowed(request({ ...forwarded, host: 'evil.test' }, '203.0.113.9'))).toBe(false);
    expect(site.ownOrigin(request({ ...forwarded, host: 'labs.example.org:8080' }, '203.0.113.9'))).toBe('http://labs.example.org:8080');
    expect(site.ownOrigin(request({ host: 'labs.example.org', 'x-forwarded-proto': 'gopher' }, '10.2.3.4'))).toBe('http://labs.example.org');
  });

  it('answers to every local address when it listens on all of them, and to any host with "*"', () => {
    const local = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address.split('%')[0]));
    const all = new RequestSite([], '0.0.0.0', proxies);
    for (const address of local)
      expect(all.hostAllowed(request({ host: address.includes(':') ? `[${address}]:8086` : `${address}:8086` })), address).toBe(true);
    expect(all.hostAllowed(request({ host: '192.0.2.200' }))).toBe(false);
    expect(new RequestSite(['*'], '127.0.0.1', proxies).hostAllowed(request({ host: 'anything.test' }))).toBe(true);
    expect(new RequestSite([], 'api.internal', proxies).hostAllowed(request({ host: 'api.internal:8086' }))).toBe(true);
  });

  it('reads a Host header as a host name or nothing', () => {
    expect([hostnameOf('Example.COM:80'), hostnameOf('[2001:DB8::1]:8080'), hostnameOf('a b'), hostnameOf('x:99999'), hostnameOf('')]).toEqual([
      'example.com',
      '2001:db8::1',
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('what is closed by default', () => {
  it('leaves nothing open as shipped, and names each setting that opens something', () => {
    const { config } = loadConfig({ env: {}, argv: [], overrides: { instanceId: 'x', curriculumDir: '/c' } });
    expect(insecureSettings(config.api)).toEqual([]);
    expect(config.api).toMatchObject({
      corsOrigins: [],
      allowedHosts: [],
      exposeDevicePasswords: false,
      maxInFlightPerClient: 32,
      ipv6ClientPrefix: 64,
      headersTimeoutSeconds: 10,
      requestTimeoutSeconds: 30,
    });
    const open = insecureSettings({ ...config.api, corsOrigins: ['*'], allowedHosts: ['*'], exposeDevicePasswords: true });
    expect(open).toEqual([
      expect.stringContaining('api.corsOrigins'),
      expect.stringContaining('api.allowedHosts'),
      expect.stringContaining('api.exposeDevicePasswords'),
    ]);
    expect(open.every((line) => line.startsWith('INSECURE: '))).toBe(true);
  });
});
