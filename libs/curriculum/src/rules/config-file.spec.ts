import { describe, expect, it } from 'vitest';
import { includedAt } from '../tier.js';
import { configFileMatches, NAPALM_DRIVERS } from './lesson.rules.js';

describe('configFileMatches: the whole base name, per configuration type (reference §2.3 rule 4, fixed)', () => {
  it.each([
    ['python', 'foo', 'foo.py', true],
    ['python', 'foo', 'xfoo.py', false],
    ['python', 'foo', 'foo.py.bak', false],
    ['python', 'foo', 'foo.yml', false],
    ['ansible', 'foo', 'foo.yml', true],
    ['ansible', 'foo', 'foo.yaml', false],
    ['ansible', 'foo', 'old-foo.yml', false],
    ['napalm', 'vqfx1', 'vqfx1-junos.txt', true],
    ['napalm', 'vqfx1', 'vqfx1-nxos_ssh.txt', true],
    ['napalm', 'vqfx1', 'vqfx1-vyos.txt', false],
    ['napalm', 'vqfx1', 'old-vqfx1-junos.txt', false],
    ['napalm', 'vqfx1', 'vqfx1-junos.txt.orig', false],
    ['napalm', 'v.1', 'vx1-junos.txt', false],
    ['', 'foo', 'foo.py', false],
  ] as const)('%s endpoint %s: %s → %s', (configurationType, name, fileName, expected) => {
    expect(configFileMatches({ name, configurationType }, fileName)).toBe(expected);
  });

  it('knows every napalm driver of the original', () => {
    expect(NAPALM_DRIVERS).toEqual(['junos', 'eos', 'iosxr', 'nxos', 'nxos_ssh', 'ios']);
    for (const driver of NAPALM_DRIVERS) expect(configFileMatches({ name: 'r1', configurationType: 'napalm' }, `r1-${driver}.txt`)).toBe(true);
  });
});

describe('includedAt: the tier filter (reference §2.2)', () => {
  it.each([
    ['prod', 'prod', true],
    ['ptr', 'prod', false],
    ['local', 'prod', false],
    ['prod', 'ptr', true],
    ['ptr', 'ptr', true],
    ['local', 'ptr', false],
    ['prod', 'local', true],
    ['ptr', 'local', true],
    ['local', 'local', true],
    ['gold', 'local', false],
  ] as const)('a %s resource at a %s deployment → %s', (tier, configured, expected) => {
    expect(includedAt(tier, configured)).toBe(expected);
  });
});
