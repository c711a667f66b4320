import { describe, expect, it } from 'vitest';
import { dnsLabel, dnsSubdomain, isDns1035Label, isDnsLabel, isDnsSubdomain, isLabelValue, labelValue, shortHash } from './dns-name.js';
import {
  bridgeName,
  cniNetworkName,
  configJobName,
  connectionNadNames,
  endpointResourceName,
  guideDomain,
  hepDomain,
  ingressName,
  nadName,
  namespaceName,
} from './names.js';

describe('reference names (§5.1) are kept exactly when they are valid', () => {
  it.each([
    ['namespace', namespaceName('antidote-testing', 'abcdef1234'), 'antidote-testing-abcdef1234'],
    ['endpoint', endpointResourceName('vqfx1'), 'vqfx1'],
    ['ingress', ingressName('linux1', 'web'), 'linux1-web'],
    ['hep domain', hepDomain('foo-abc', 'linux1', 'web', 'heps.nrelabs.io'), 'foo-abc-linux1-web.heps.nrelabs.io'],
    ['guide domain', guideDomain('foo-abc', 'localhost'), 'foo-abc-jupyterlabguide-web.localhost'],
    ['nad', nadName('vqfx1', 'vqfx2'), 'vqfx1-vqfx2-net'],
    ['cni network', cniNetworkName('foo-abc', 'vqfx1-vqfx2-net'), 'foo-abc-vqfx1-vqfx2-net'],
    ['config job', configJobName('vqfx1', 2), 'config-vqfx1-2'],
  ])('%s', (_what, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('dnsLabel', () => {
  const cases = [
    'UPPER-case',
    'under_score',
    'dot.ted',
    '-leading-and-trailing-',
    '1starts-with-digit',
    'x'.repeat(64),
    'a-'.repeat(40),
    '----',
    'ünïcødé',
    '',
  ];

  it.each(cases)('turns %j into a valid label within 63 characters', (input) => {
    const out = dnsLabel(input);
    expect(isDnsLabel(out)).toBe(true);
    expect(out.length).toBeLessThanOrEqual(63);
    expect(dnsLabel(input)).toBe(out);
  });

  it.each(cases)('with startWithLetter turns %j into a DNS-1035 label', (input) => {
    expect(isDns1035Label(dnsLabel(input, { startWithLetter: true }))).toBe(true);
  });

  it('keeps a readable prefix and adds a hash only when needed', () => {
    expect(dnsLabel('Router_1')).toMatch(/^router-1-[a-z2-7]{10}$/);
    expect(dnsLabel('router-1')).toBe('router-1');
  });

  it('never maps two different long names onto one label (no truncation collisions)', () => {
    const base = 'a'.repeat(70);
    const names = Array.from({ length: 2000 }, (_, i) => `${base}${i}`);
    const out = new Set(names.map((name) => dnsLabel(name)));
    expect(out.size).toBe(names.length);
    for (const name of out) expect(name.length).toBe(63);
  });

  it('separates names that differ only in case or in invalid characters', () => {
    const variants = ['Router1', 'router1', 'ROUTER1', 'router_1', 'router.1', 'router-1'];
    expect(new Set(variants.map((name) => dnsLabel(name))).size).toBe(variants.length);
  });

  it('honours a shorter maxLength', () => {
    const out = dnsLabel('a'.repeat(40), { maxLength: 20 });
    expect(out.length).toBeLessThanOrEqual(20);
    expect(isDnsLabel(out)).toBe(true);
    expect(() => dnsLabel('x', { maxLength: 5 })).toThrow(RangeError);
  });
});

describe('dnsSubdomain and labelValue', () => {
  it('keeps valid subdomains and repairs invalid ones', () => {
    expect(dnsSubdomain('a.b-c.d')).toBe('a.b-c.d');
    for (const input of ['A..B', `${'x'.repeat(250)}.yy`, '.leading.dot', 'trailing.dot.', 'sp ace']) {
      const out = dnsSubdomain(input);
      expect(isDnsSubdomain(out), out).toBe(true);
    }
  });

  it('keeps valid label values (empty included) and shortens the rest', () => {
    expect(labelValue('abc_DEF.1')).toBe('abc_DEF.1');
    expect(labelValue('')).toBe('');
    const long = 's'.repeat(64);
    for (const input of [long, '_lead', 'trail_', 'white space', '%%%']) {
      const out = labelValue(input);
      expect(isLabelValue(out), out).toBe(true);
      expect(out).not.toBe(input);
    }
    expect(labelValue(long)).not.toBe(labelValue(`${long}x`));
  });
});

describe('endpoint, HEP and job names stay valid for any lesson input (§9 item 14)', () => {
  const longId = 'i'.repeat(52);
  const namespace = namespaceName(longId, 'l'.repeat(40));

  it('shortens an over-long namespace name', () => {
    expect(isDnsLabel(namespace)).toBe(true);
    expect(namespace.length).toBe(63);
    expect(namespaceName(longId, 'l'.repeat(39))).not.toBe(namespace);
  });

  it('keeps the first label of a HEP domain ≤ 63 and distinct per endpoint and presentation', () => {
    const a = hepDomain(namespace, 'endpoint-one', 'web', 'heps.example.org');
    const b = hepDomain(namespace, 'endpoint-one', 'web2', 'heps.example.org');
    const c = hepDomain(namespace, 'endpoint-on', 'eweb', 'heps.example.org');
    for (const domain of [a, b, c]) {
      expect(isDnsSubdomain(domain)).toBe(true);
      expect(domain.split('.')[0].length).toBeLessThanOrEqual(63);
      expect(domain.endsWith('.heps.example.org')).toBe(true);
    }
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('makes Service-compatible endpoint names', () => {
    for (const name of ['1router', 'R1', 'r1.lab', 'x'.repeat(70)]) expect(isDns1035Label(endpointResourceName(name))).toBe(true);
  });

  it("keeps config job names ≤ 63 (they are also the pods' job-name label)", () => {
    const name = configJobName('e'.repeat(70), 12);
    expect(isDnsLabel(name)).toBe(true);
    expect(isLabelValue(name)).toBe(true);
  });
});

describe('connectionNadNames', () => {
  it('names each connection <A>-<B>-net and de-duplicates repeated and ambiguous names', () => {
    const names = connectionNadNames([
      { a: 'r1', b: 'r2' },
      { a: 'r1', b: 'r2' },
      { a: 'x-y', b: 'z' },
      { a: 'x', b: 'y-z' },
    ]);
    expect(names).toEqual(['r1-r2-net', 'r1-r2-net-1', 'x-y-z-net', 'x-y-z-net-3']);
  });
});

describe('bridgeName (§9 item 15)', () => {
  it('is at most 15 characters of [a-z0-9] and deterministic', () => {
    const name = bridgeName('antidote-prod-abcdef1234', 0);
    expect(name).toMatch(/^ad[a-z2-7]{13}$/);
    expect(bridgeName('antidote-prod-abcdef1234', 0)).toBe(name);
  });

  it('does not collide across instances and lessons that share the reference 6+6 prefix', () => {
    // The reference used <index><first 6 of instanceId><first 6 of llId>: all of these were one bridge.
    const names = new Set<string>();
    let count = 0;
    for (const instance of ['antido', 'antidote-a', 'antidote-b', 'antidote-prod']) {
      for (let lesson = 0; lesson < 5000; lesson++) {
        const namespace = namespaceName(instance, `abcdef${lesson.toString(36).padStart(4, '0')}`);
        for (let index = 0; index < 3; index++) {
          names.add(bridgeName(namespace, index));
          count++;
        }
      }
    }
    expect(names.size).toBe(count);
  });
});

describe('shortHash', () => {
  it('is base32 of SHA-256 with the requested length', () => {
    expect(shortHash('abc', 13)).toMatch(/^[a-z2-7]{13}$/);
    // SHA-256("abc") starts ba7816bf: 10111 01001 11100 00001 0110… → x j 4 b
    expect(shortHash('abc', 4)).toBe('xj4b');
  });
});
