import { describe, expect, it } from 'vitest';
import {
  describeBoot,
  parseBootProfiles,
  parseDuration,
  planBoot,
  profileOf,
  readyAfterMs,
  REALISTIC_BOOT_PROFILES,
  stageAt,
  type BootPlan,
} from './boot-profile.js';

describe('parseDuration', () => {
  it.each([
    ['150s', 150_000],
    ['1500ms', 1500],
    ['2m', 120_000],
    ['0.5s', 500],
    ['250', 250],
  ])('%s → %i ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', 's', '-1s', '3h', '1,5s'])('refuses %j', (text) => expect(() => parseDuration(text)).toThrow(/not a duration/));
});

describe('parseBootProfiles', () => {
  it('reads the time to CLI, with the port at 60 % and the login at 75 % of it', () => {
    expect(parseBootProfiles('vqfx*=150s,cvx*=45s')).toEqual({
      'vqfx*': { portMs: 90_000, loginMs: 112_500, cliMs: 150_000 },
      'cvx*': { portMs: 27_000, loginMs: 33_750, cliMs: 45_000 },
    });
  });

  it('reads every option', () => {
    expect(parseBootProfiles('*csr*=4m/port=2m/login=3m/jitter=5%/reboot, bad*=10s/fail')).toEqual({
      '*csr*': { portMs: 120_000, loginMs: 180_000, cliMs: 240_000, jitter: 0.05, reboot: true },
      'bad*': { portMs: 6000, loginMs: 7500, cliMs: 10_000, fail: true },
    });
  });

  it('puts the realistic set where it is named: an explicit pattern before it wins', () => {
    const profiles = parseBootProfiles('*vqfx*=30s,realistic');
    expect(profiles['*vqfx*'].cliMs).toBe(30_000);
    expect(profiles['*utility*']).toEqual(REALISTIC_BOOT_PROFILES['*utility*']);
    expect(profileOf(profiles, 'antidotelabs/vqfx:1.0')?.[1].cliMs).toBe(30_000);
  });

  it.each([
    ['vqfx*', /must be <image pattern>=<time>/],
    ['=10s', /must be <image pattern>=<time>/],
    ['vqfx*=10s/port=20s', /port must answer before the login/],
    ['vqfx*=10s/jitter=150%', /jitter must be a percentage/],
    ['vqfx*=10s/slow', /unknown boot option "slow"/],
    ['vqfx*=soon', /not a duration/],
  ])('refuses %j', (spec, why) => expect(() => parseBootProfiles(spec)).toThrow(why));
});

const plan = (over: Partial<BootPlan> = {}): BootPlan => ({ pattern: 'p', startedAt: 1000, portMs: 100, loginMs: 200, cliMs: 400, ...over });

describe('stageAt', () => {
  it.each([
    [0, 'down'],
    [99, 'down'],
    [100, 'login'],
    [199, 'login'],
    [200, 'booting'],
    [399, 'booting'],
    [400, 'ready'],
    [100_000, 'ready'],
  ])('%i ms after the start: %s', (after, stage) => expect(stageAt(plan(), 1000 + after)).toBe(stage));

  it('a failing boot never gets past its login stage', () => {
    expect(stageAt(plan({ fail: true }), 1000 + 150)).toBe('login');
    expect(stageAt(plan({ fail: true }), 1000 + 1e9)).toBe('login');
    expect(readyAfterMs(plan({ fail: true }))).toBeUndefined();
  });

  it('a reboot goes down again and boots from the start', () => {
    const rebooting = plan({ rebootMs: 300 });
    expect([250, 299, 300, 399, 450, 650, 700].map((after) => stageAt(rebooting, 1000 + after))).toEqual([
      'booting',
      'booting',
      'down',
      'down',
      'login',
      'booting',
      'ready',
    ]);
    expect(readyAfterMs(rebooting)).toBe(700);
  });
});

describe('planBoot', () => {
  const profile = { portMs: 1000, loginMs: 2000, cliMs: 4000, jitter: 0.1 };

  it.each([
    [0, 0.9],
    [0.5, 1],
    [1, 1.1],
  ])('scales every time by the jitter drawn (random %d → ×%d)', (random, scale) => {
    expect(planBoot('p', profile, 0, () => random)).toMatchObject({ portMs: 1000 * scale, loginMs: 2000 * scale, cliMs: 4000 * scale });
  });

  it('places a reboot halfway between the login and the CLI', () => {
    expect(planBoot('p', { ...profile, jitter: 0, reboot: true }, 0).rebootMs).toBe(3000);
  });

  it('describes the boot for the pod log', () => {
    expect(describeBoot(planBoot('*vqfx*', { ...profile, jitter: 0, reboot: true }, 0))).toBe(
      'booting (profile *vqfx*): SSH port at 1.0 s, login at 2.0 s, CLI at 4.0 s, reboots at 3.0 s and boots again',
    );
    expect(describeBoot(planBoot('bad*', { ...profile, fail: true }, 0, () => 0.5))).toMatch(/never gets past its login \(boot fails\)$/);
  });
});
