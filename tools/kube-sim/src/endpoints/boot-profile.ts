import { matchesPattern } from '../faults.js';

/**
 * How a device image boots once its pod is Running (its ports bound), as real virtual devices do: the port
 * first accepts and drops connections (the VM behind it is not up), then SSH answers but ends the
 * connection at login, then a login works but the CLI answers "still booting", then it is ready. Times in
 * ms from the moment the pod's ports opened; `portMs ≤ loginMs ≤ cliMs`.
 */
export interface BootProfile {
  /** Until then, every connection is accepted and closed at once. */
  portMs: number;
  /** Until then, SSH sends its banner and key exchange but ends the connection at authentication. */
  loginMs: number;
  /** Until then, a login works but every command answers "still booting" (HTTP 503, TCP banner `booting`). */
  cliMs: number;
  /** Each pod's times vary by up to ± this fraction (0.1: ±10 %). */
  jitter?: number;
  /** The device never finishes booting: it stays at its login stage. */
  fail?: boolean;
  /** The device reboots once, halfway between its login and its CLI, and boots again from the start. */
  reboot?: boolean;
}

/** Where a device's boot stands: see BootProfile. */
export type BootStage = 'down' | 'login' | 'booting' | 'ready';
export const BOOT_STAGES: readonly BootStage[] = ['down', 'login', 'booting', 'ready'];

/** One pod's boot: its profile's times with this pod's jitter, from `startedAt` (epoch ms). */
export interface BootPlan {
  pattern: string;
  startedAt: number;
  portMs: number;
  loginMs: number;
  cliMs: number;
  /** The reboot, ms after start: from then on the boot starts over. */
  rebootMs?: number;
  fail?: boolean;
}

/** A profile given only its time to CLI: the SSH port answers at 60 % of it, logins at 75 % (as vQFX, cEOS, CSR do). */
export const profileFor = (cliMs: number, options: Omit<BootProfile, 'portMs' | 'loginMs' | 'cliMs'> = {}): BootProfile => ({
  portMs: Math.round(cliMs * 0.6),
  loginMs: Math.round(cliMs * 0.75),
  cliMs,
  ...options,
});

/**
 * `--boot-profile realistic`: images as they boot on a lab node (KVM, a few vCPUs), from the sample
 * curriculum's vQFX switch and utility host to the usual router and switch images; ±10 % per pod.
 */
export const REALISTIC_BOOT_PROFILES: Readonly<Record<string, BootProfile>> = {
  '*vqfx*': profileFor(150_000, { jitter: 0.1 }),
  '*vmx*': profileFor(300_000, { jitter: 0.1 }),
  '*vsrx*': profileFor(180_000, { jitter: 0.1 }),
  '*csr*': profileFor(240_000, { jitter: 0.1 }),
  '*xrv*': profileFor(360_000, { jitter: 0.1 }),
  '*ceos*': profileFor(60_000, { jitter: 0.1 }),
  '*cvx*': profileFor(45_000, { jitter: 0.1 }),
  '*frr*': profileFor(5000, { jitter: 0.1 }),
  '*utility*': { portMs: 1000, loginMs: 1500, cliMs: 2000, jitter: 0.1 },
};

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** `150s`, `1500ms`, `2m`, or a plain number of ms. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text.trim());
  if (!match) throw new Error(`not a duration: "${text}" (e.g. 150s, 1500ms, 2m)`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']);
}

function parseOption(profile: BootProfile, option: string): BootProfile {
  const [name, value = ''] = option.split('=');
  switch (name) {
    case 'port':
      return { ...profile, portMs: parseDuration(value) };
    case 'login':
      return { ...profile, loginMs: parseDuration(value) };
    case 'jitter': {
      const percent = Number(value.replace(/%$/, ''));
      if (!Number.isFinite(percent) || percent < 0 || percent >= 100) throw new Error(`jitter must be a percentage below 100: "${value}"`);
      return { ...profile, jitter: percent / 100 };
    }
    case 'fail':
      return { ...profile, fail: true };
    case 'reboot':
      return { ...profile, reboot: true };
    default:
      throw new Error(`unknown boot option "${option}" (port=, login=, jitter=, fail, reboot)`);
  }
}

/** Why a profile cannot be used, or undefined. */
export function profileProblem(profile: BootProfile): string | undefined {
  const times = [profile.portMs, profile.loginMs, profile.cliMs];
  if (times.some((ms) => !Number.isFinite(ms) || ms < 0)) return 'times must be non-negative';
  if (profile.portMs > profile.loginMs || profile.loginMs > profile.cliMs) return 'the port must answer before the login works, and the login before the CLI';
  if (profile.jitter !== undefined && !(profile.jitter >= 0 && profile.jitter < 1)) return 'jitter must be a fraction from 0 to below 1';
  return undefined;
}

/**
 * `--boot-profile` text: comma-separated `<image pattern>=<time to CLI>[/port=<d>][/login=<d>][/jitter=<n>%][/fail][/reboot]`,
 * and `realistic` for REALISTIC_BOOT_PROFILES at that place (the first pattern matching an image wins),
 * e.g. `vqfx*=150s,cvx*=45s/jitter=5%,realistic`.
 */
export function parseBootProfiles(spec: string): Record<string, BootProfile> {
  const profiles: Record<string, BootProfile> = {};
  for (const entry of spec
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    if (entry === 'realistic') {
      for (const [pattern, profile] of Object.entries(REALISTIC_BOOT_PROFILES)) profiles[pattern] ??= profile;
      continue;
    }
    const equals = entry.indexOf('=');
    if (equals <= 0) throw new Error(`boot profile "${entry}" must be <image pattern>=<time>, e.g. vqfx*=150s`);
    const [time, ...options] = entry.slice(equals + 1).split('/');
    const profile = options.reduce(parseOption, profileFor(parseDuration(time)));
    const problem = profileProblem(profile);
    if (problem) throw new Error(`boot profile "${entry}": ${problem}`);
    profiles[entry.slice(0, equals)] = profile;
  }
  return profiles;
}

/** The first profile whose pattern matches the image, with its pattern. */
export function profileOf(profiles: Readonly<Record<string, BootProfile>>, image: string): [string, BootProfile] | undefined {
  return Object.entries(profiles).find(([pattern]) => matchesPattern(pattern, image));
}

/** This pod's boot from now: the profile's times scaled by one draw of its jitter. */
export function planBoot(pattern: string, profile: BootProfile, startedAt: number, random: () => number = Math.random): BootPlan {
  const scale = 1 + (profile.jitter ?? 0) * (2 * random() - 1);
  const [portMs, loginMs, cliMs] = [profile.portMs, profile.loginMs, profile.cliMs].map((ms) => Math.round(ms * scale));
  return {
    pattern,
    startedAt,
    portMs,
    loginMs,
    cliMs,
    ...(profile.reboot ? { rebootMs: loginMs + Math.round((cliMs - loginMs) / 2) } : {}),
    ...(profile.fail ? { fail: true } : {}),
  };
}

/** Where the boot stands at `now`. */
export function stageAt(plan: BootPlan, now: number): BootStage {
  let elapsed = now - plan.startedAt;
  if (plan.rebootMs !== undefined && elapsed >= plan.rebootMs) elapsed -= plan.rebootMs;
  if (elapsed < plan.portMs) return 'down';
  if (elapsed < plan.loginMs || plan.fail) return 'login';
  return elapsed < plan.cliMs ? 'booting' : 'ready';
}

/** When the device is ready, ms after its start (undefined: never). */
export const readyAfterMs = (plan: BootPlan): number | undefined => (plan.fail ? undefined : (plan.rebootMs ?? 0) + plan.cliMs);

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The pod log's line about its boot. */
export function describeBoot(plan: BootPlan): string {
  const reboot = plan.rebootMs === undefined ? '' : `, reboots at ${seconds(plan.rebootMs)} and boots again`;
  const end = plan.fail ? 'never gets past its login (boot fails)' : `CLI at ${seconds(plan.cliMs)}`;
  return `booting (profile ${plan.pattern}): SSH port at ${seconds(plan.portMs)}, login at ${seconds(plan.loginMs)}, ${end}${reboot}`;
}
