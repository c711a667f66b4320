import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { account, printable, type ChaosAccount } from './account.js';
import { startChaosPlatform, type ChaosPlatform } from './chaos-platform.js';
import { inject, isLeader, type Fault, type FaultKind, type PlannedFault } from './faults.js';
import { LearnerClient } from './learner-client.js';
import { learner, type Load } from './learners.js';

export interface ChaosProfile {
  name: string;
  learners: number;
  /** Learners arrive evenly over this; keep-alives stop at its end. */
  loadMs: number;
  faults: PlannedFault[];
  liveLessonTtlMinutes: number;
}

/** Every fault kind once, spread over a load of `loadMs`: the cycle the short and the long run repeat. */
export function faultCycle(startMs: number, spacingMs: number): PlannedFault[] {
  const kinds: FaultKind[] = [
    'scheduler kill',
    'nats restart',
    'api kill',
    'healthchecker kill',
    'postgres restart',
    'reaper kill',
    'scheduler kill, restarted late',
  ];
  return kinds.map((kind, index) => ({ atMs: startMs + index * spacingMs, kind }));
}

/**
 * When each learner arrives (ms after the start): two just before each fault, so that every fault finds
 * labs on their way to READY, and the others evenly over the first 80 % of the load.
 */
export function arrivals(profile: ChaosProfile): number[] {
  const beforeFaults = profile.faults.flatMap((fault) => [fault.atMs - 1500, fault.atMs - 700]).filter((at) => at >= 0);
  const even = Math.max(0, profile.learners - beforeFaults.length);
  const spread = Array.from({ length: even }, (_, n) => (n * profile.loadMs * 0.8) / Math.max(1, even));
  return [...beforeFaults.slice(0, profile.learners), ...spread].sort((a, b) => a - b);
}

/** Once the load is over: every lab READY (at its stage) or gone, as its learner left it — or the deadline. */
async function settle(chaos: ChaosPlatform, load: Load, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const rows = new Map((await chaos.platform.data.liveLessons.list().catch(() => [])).map((row) => [row.id, row]));
    const done = load.labs.every((lab) => {
      const row = rows.get(lab.id);
      return lab.deleted ? !row : !row || row.error || (row.status === 'READY' && row.currentStage === lab.stage);
    });
    if (done) return;
    await sleep(500);
  }
}

/** Samples every reaper's leader gauge each second: the most that ever led at once. */
function watchReaperLeaders(chaos: ChaosPlatform, signal: AbortSignal): Promise<number> {
  return (async () => {
    let most = 0;
    while (!signal.aborted) {
      const leading = await Promise.all(chaos.of('reaper').map((replica) => isLeader(replica)));
      most = Math.max(most, leading.filter(Boolean).length);
      await sleep(1000, undefined, { signal }).catch(() => undefined);
    }
    return most;
  })();
}

/**
 * The chaos run: the platform as processes, learners through both apis (streams, stage changes,
 * keep-alives, deletes, expiry), the planned faults at their times, then — once everything settled —
 * the account of every accepted request. Returns it with its printable form.
 */
export async function runChaos(profile: ChaosProfile): Promise<{ account: ChaosAccount; text: string; faults: Fault[] }> {
  const chaos = await startChaosPlatform({ liveLessonTtlMinutes: profile.liveLessonTtlMinutes });
  const stopSampling = new AbortController();
  try {
    const started = Date.now();
    const load: Load = { client: new LearnerClient(chaos.apiUrls), endAt: started + profile.loadMs, labs: [], problems: [] };
    const leaders = watchReaperLeaders(chaos, stopSampling.signal);
    const learners: Promise<void>[] = [];
    const arriving = (async () => {
      for (const [n, atMs] of arrivals(profile).entries()) {
        await sleep(Math.max(0, started + atMs - Date.now()));
        learners.push(learner(load, n).catch((error: unknown) => void load.problems.push(`learner ${n}: ${String(error)}`)));
      }
    })();
    const faults: Fault[] = [];
    for (const planned of profile.faults) {
      await sleep(Math.max(0, started + planned.atMs - Date.now()));
      faults.push(await inject(chaos, planned.kind));
    }
    await arriving;
    await Promise.all(learners);
    await settle(chaos, load, 180_000);
    for (const lab of load.labs) for (const stream of lab.streams) stream.stop();
    stopSampling.abort();
    const result = await account(chaos, load, faults, await leaders);
    const title = `chaos account (${profile.name}): ${profile.learners} learners over ${Math.round(profile.loadMs / 1000)} s through 2 apis, 2 replicas of every app as processes, PostgreSQL, nats-server with authorization, kube-sim (pods 1 s, jobs 1 s)`;
    return { account: result, text: printable(title, result, faults, started), faults };
  } catch (error) {
    const output = chaos.replicas.map((replica) => `--- ${replica.name} (started ${replica.starts}×)\n${replica.output()}`).join('\n');
    throw new Error(`${String(error)}\n${output}`);
  } finally {
    stopSampling.abort();
    await chaos.stop();
  }
}

/**
 * What every chaos run must show whatever the machine: every one of `learners` requests accepted, and
 * nothing lost, failed, stuck, duplicated or orphaned, no learner-visible 5xx, no silent stream.
 */
export function expectNothingLost(chaos: ChaosAccount, learners: number): void {
  expect({ lost: chaos.lost, failed: chaos.failed, stuck: chaos.stuck, duplicates: chaos.duplicates, orphans: chaos.orphans }).toEqual({
    lost: [],
    failed: [],
    stuck: [],
    duplicates: [],
    orphans: [],
  });
  expect(chaos.accepted).toBe(learners);
  expect(chaos.serverErrors).toEqual([]);
  expect(chaos.silentStreams).toEqual([]);
}
