import { setTimeout as sleep } from 'node:timers/promises';
import type { AppReplica } from './app-processes.js';
import type { ChaosPlatform } from './chaos-platform.js';

export type FaultKind =
  'scheduler kill' | 'scheduler kill, restarted late' | 'api kill' | 'healthchecker kill' | 'reaper kill' | 'nats restart' | 'postgres restart';

export interface PlannedFault {
  /** After the start of the load. */
  atMs: number;
  kind: FaultKind;
}

/** A fault as it happened: when it hit, and when what it took away was back. */
export interface Fault {
  kind: FaultKind;
  target: string;
  at: number;
  backAt: number;
}

/** How long nats-server stays down (a pod restarting), and a replica restarted late stays dead. */
const NATS_DOWN_MS = 3000;
const LATE_RESTART_MS = 20_000;

/** The scheduler replica holding the most claims now (the one whose death costs the most). */
async function busiestScheduler(chaos: ChaosPlatform): Promise<AppReplica> {
  const rows = await chaos.platform.data.liveLessons.list();
  const claims = (replica: AppReplica) => rows.filter((row) => row.claimedBy === replica.name).length;
  return chaos.of('scheduler').sort((a, b) => claims(b) - claims(a))[0];
}

/** The reaper replica that leads now (its metrics say so), else the first. */
async function leadingReaper(chaos: ChaosPlatform): Promise<AppReplica> {
  for (const replica of chaos.of('reaper')) if (await isLeader(replica)) return replica;
  return chaos.of('reaper')[0];
}

export async function isLeader(replica: AppReplica): Promise<boolean> {
  if (!replica.running || !replica.url) return false;
  const metrics = await fetch(`${replica.url}/metrics`, { signal: AbortSignal.timeout(2000) }).then(
    (response) => response.text(),
    () => '',
  );
  return /^antidote_reaper_leader\S* 1$/m.test(metrics);
}

/** kill -9, then the same replica again (a container restarted in its pod), at once or `laterMs` later. */
async function killAndRestart(replica: AppReplica, laterMs = 0): Promise<number> {
  await replica.kill();
  if (laterMs > 0) await sleep(laterMs);
  await replica.start();
  return Date.now();
}

let turn = 0;

/** Injects one fault; resolves once what it took away is back. */
export async function inject(chaos: ChaosPlatform, kind: FaultKind): Promise<Fault> {
  const at = Date.now();
  const other = (replicas: AppReplica[]) => replicas[turn++ % replicas.length];
  switch (kind) {
    case 'scheduler kill':
    case 'scheduler kill, restarted late': {
      const target = await busiestScheduler(chaos);
      const backAt = await killAndRestart(target, kind === 'scheduler kill' ? 0 : LATE_RESTART_MS);
      return { kind, target: target.name, at, backAt };
    }
    case 'api kill':
    case 'healthchecker kill': {
      const target = other(chaos.of(kind === 'api kill' ? 'api' : 'healthchecker'));
      return { kind, target: target.name, at, backAt: await killAndRestart(target) };
    }
    case 'reaper kill': {
      const target = await leadingReaper(chaos);
      return { kind, target: target.name, at, backAt: await killAndRestart(target) };
    }
    case 'nats restart': {
      await chaos.platform.nats.restart(NATS_DOWN_MS);
      return { kind, target: 'nats-server', at, backAt: Date.now() };
    }
    case 'postgres restart': {
      await chaos.postgres.restart(250, 'immediate');
      return { kind, target: 'postgresql', at, backAt: Date.now() };
    }
  }
}
