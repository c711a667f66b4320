import { readdirSync, readFileSync } from 'node:fs';
import { distribution, type Distribution } from '@antidote/testing';
import type { UpPlatform } from './antictl-up.js';
import { expClient, simRequests } from './exp-client.js';
import { untilFinal } from './time-to-ready.js';

export const APPS = ['api', 'scheduler', 'healthchecker', 'reaper'] as const;
export type App = (typeof APPS)[number];
export type Usage = { rssMiB: number; peakRssMiB: number; cpuMs: number };
export type Held = { ms: number; ready: true; held: HeldLesson } | { ms: number; ready: false; why: string };

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** A live lesson a benchmark brought to READY, and whose it is (for keep-alives). */
export interface HeldLesson {
  ip: string;
  session: string;
  id: string;
  /** When the learner sent the request (this process's clock), where the learner ran here. */
  requestedAt?: number;
}

/** A burst of learners and what it cost. */
export interface Run {
  lessons: number;
  seconds: number;
  lessonsPerSecond: number;
  failures: string[];
  timeToReadyMs?: Distribution;
  cpuMsPerLesson: Record<App | 'total', number>;
  /** The simulated cluster's CPU per lesson: not the platform's cost, but on the same cores. */
  kubeSimCpuMsPerLesson: number;
  kubeCallsPerLesson: number;
  /** Statements the four apps sent to the database per lesson (their `antidote_database_statements_total`), polling included. */
  statementsPerLesson: number;
  samples: number[];
  held: HeldLesson[];
}

/** A process's resident and peak resident memory (MiB) and the CPU it has used (ms), from /proc. */
export function usageOf(pid: number): Usage {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  // The fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const stat = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
  return { rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024, cpuMs: ((Number(stat[11]) + Number(stat[12])) * 1000) / TICKS_PER_SECOND };
}

/**
 * The pid of this platform's kube-sim (antictl up prints no pid for it): the process whose command line
 * runs kube-sim with a kubeconfig in the platform's folder.
 */
export function kubeSimPid(platform: UpPlatform): number {
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    if (commandLine.includes('kube-sim/dist/main.js') && commandLine.includes(platform.dir)) return Number(entry);
  }
  throw new Error(`no kube-sim process of the platform in ${platform.dir}`);
}

export const usages = (platform: UpPlatform) => Object.fromEntries(APPS.map((app) => [app, usageOf(platform.pidOf(app))])) as Record<App, Usage>;

/** CPU ms each app used between two readings, divided by `per`. */
export const cpuBetween = (before: Record<App, Usage>, after: Record<App, Usage>, per = 1): Record<App | 'total', number> => {
  const cpu = Object.fromEntries(APPS.map((app) => [app, (after[app].cpuMs - before[app].cpuMs) / per])) as Record<App, number>;
  return { ...cpu, total: APPS.reduce((sum, app) => sum + cpu[app], 0) };
};

/** Kubernetes API calls the scheduler has made so far (kube-sim's request log, by User-Agent) — the reaper's lease and passes apart. */
export const kubeCalls = async (platform: UpPlatform) =>
  (await simRequests(platform.kubeSim)).filter((request) => request.userAgent === 'antidote-scheduler').length;

/** The database statements the four apps have sent so far (each app's `antidote_database_statements_total`, from its ops port as antictl up printed it). */
export async function statements(platform: UpPlatform): Promise<number> {
  let total = 0;
  for (const app of APPS) {
    const ops = [...platform.output().matchAll(new RegExp(`^${app}\\s+ready \\(ops (\\S+), pid \\d+\\)$`, 'gm'))].at(-1)?.[1];
    if (!ops) throw new Error(`antictl up printed no ops address for ${app}`);
    const metrics = await (await fetch(`${ops}/metrics`)).text();
    total += Number(/^antidote_database_statements_total(?:\{[^}]*\})? (\S+)$/m.exec(metrics)?.[1] ?? NaN);
  }
  return total;
}

/** `count` learners at once through the /exp API (each its own address, session and live lesson), until each lesson is final. */
export async function burst(platform: UpPlatform, slug: string, count: number, subnet: number): Promise<Run> {
  return measuredBurst(platform, count, () =>
    Promise.all(Array.from({ length: count }, (_, i) => learner(platform.api, slug, `10.${subnet}.${Math.floor(i / 250)}.${(i % 250) + 1}`))),
  );
}

/**
 * Why a request never got an answer: fetch's `TypeError: fetch failed` hides the socket's error in its
 * cause (a reset, a refused connection), and the client's own timeout is a TimeoutError.
 */
export function unanswered(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'socket: no answer within the client timeout (TimeoutError)';
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (error instanceof TypeError && error.message === 'fetch failed') return `socket: fetch failed (${cause?.code ?? cause?.message ?? 'no cause'})`;
  return String(error);
}

/** One learner in this process, a session, a lab and its event stream until final; `ip` goes in x-forwarded-for. */
export async function learner(api: string, slug: string, ip: string): Promise<Held> {
  const exp = expClient(api, ip);
  const requestedAt = Date.now();
  try {
    const session = await exp.newSession();
    const id = await exp.requestLesson(session, slug, 0);
    const outcome = await untilFinal(exp, api, ip, id, requestedAt);
    return outcome.ready ? { ms: outcome.ms, ready: true, held: { ip, session, id, requestedAt } } : outcome;
  } catch (error) {
    return { ms: Date.now() - requestedAt, ready: false, why: unanswered(error) };
  }
}

/** A burst of `count` learners that `drive` brings until each lesson is final, and what it cost the platform. */
export async function measuredBurst(platform: UpPlatform, count: number, drive: () => Promise<Held[]>): Promise<Run> {
  const before = usages(platform);
  const kubeSim = kubeSimPid(platform);
  const kubeSimBefore = usageOf(kubeSim).cpuMs;
  const callsBefore = await kubeCalls(platform);
  const statementsBefore = await statements(platform);
  const started = Date.now();
  const outcomes = await drive();
  const seconds = (Date.now() - started) / 1000;
  const samples = outcomes.flatMap((outcome) => (outcome.ready ? [outcome.ms] : []));
  return {
    lessons: count,
    seconds,
    lessonsPerSecond: samples.length / seconds,
    failures: outcomes.flatMap((outcome) => (outcome.ready ? [] : [outcome.why])),
    ...(samples.length > 0 ? { timeToReadyMs: distribution(samples) } : {}),
    cpuMsPerLesson: cpuBetween(before, usages(platform), count),
    kubeSimCpuMsPerLesson: (usageOf(kubeSim).cpuMs - kubeSimBefore) / count,
    kubeCallsPerLesson: ((await kubeCalls(platform)) - callsBefore) / count,
    statementsPerLesson: ((await statements(platform)) - statementsBefore) / count,
    samples,
    held: outcomes.flatMap((outcome) => (outcome.ready ? [outcome.held] : [])),
  };
}
