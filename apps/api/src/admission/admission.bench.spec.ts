import { parseConfig } from '@antidote/config';
import type { DataManager } from '@antidote/data';
import { distribution, makeNewLiveLesson, memoryDatabase, writeBenchReport } from '@antidote/testing';
import { expect, it } from 'vitest';
import { estimateLine } from './lab-admission.service.js';

const CAPACITY = 20;
const LEARNERS = 100;
const ARRIVALS_SECONDS = 60;
const LIFETIME_SECONDS = 60;
const DAY_MS = 24 * 60 * 60_000;

interface Learner {
  id: string;
  arrivedAt: number;
  /** What the api told the learner on arrival (0 when admitted at once). */
  estimate?: number;
  waited?: number;
}

/**
 * One workload through the real queue (its repositories on SQLite) and the real estimate, on a virtual
 * clock: learners arrive evenly, each lab lives LIFETIME_SECONDS from its admission, then ends and its
 * slot goes to the next in line (as the scheduler's pass after a deletion does).
 */
async function workload(
  data: DataManager,
  clock: { now: number },
  config: ReturnType<typeof parseConfig>['config'],
  run: number,
  lifetime: () => number,
): Promise<Learner[]> {
  const learners: Learner[] = [];
  const ends = new Map<string, number>();
  const start = clock.now;
  const admit = (id: string): void => void ends.set(id, clock.now + lifetime() * 1000);
  for (let next = 0; next < LEARNERS || ends.size > 0;) {
    const arrival = next < LEARNERS ? start + (next * ARRIVALS_SECONDS * 1000) / LEARNERS : Number.POSITIVE_INFINITY;
    const [ending, endAt] = [...ends].reduce((soonest, entry) => (entry[1] < soonest[1] ? entry : soonest), ['', Number.POSITIVE_INFINITY]);
    if (arrival <= endAt) {
      clock.now = arrival;
      const id = `r${run}l${String(next++).padStart(4, '0')}`;
      await data.liveLessons.create(makeNewLiveLesson({ id, sessionId: `s-${id}`, lessonSlug: 'linux-basics' }));
      const result = await data.admission.enqueue(
        { liveLessonId: id, sessionId: `s-${id}`, client: `10.0.${next % 7}.1`, lessonSlug: 'linux-basics' },
        { cap: CAPACITY, maxQueued: 500 },
      );
      const learner: Learner = { id, arrivedAt: clock.now };
      learners.push(learner);
      if (result.kind === 'admitted') {
        Object.assign(learner, { estimate: 0, waited: 0 });
        admit(id);
      } else if (result.kind === 'waiting') {
        learner.estimate = (await estimateLine(data, config, clock.now, result.position))[result.position - 1];
      }
      continue;
    }
    clock.now = endAt;
    ends.delete(ending);
    await data.liveLessons.delete(ending);
    await data.admissionStats.settle(new Date(clock.now - DAY_MS));
    for (const ticket of (await data.admission.drain(CAPACITY, new Date(0))).admitted) {
      learners.find((learner) => learner.id === ticket.liveLessonId)!.waited = (clock.now - ticket.enqueuedAt.getTime()) / 1000;
      admit(ticket.liveLessonId);
    }
  }
  return learners;
}

function figures(learners: Learner[]) {
  const waits = learners.map((learner) => learner.waited!);
  const queued = learners.filter((learner) => learner.waited! > 0);
  const estimated = queued.filter((learner) => learner.estimate !== undefined);
  const errors = estimated.map((learner) => learner.estimate! - learner.waited!);
  const absolute = errors.length > 0 ? distribution(errors.map(Math.abs)) : undefined;
  return {
    wait: distribution(waits),
    queued: queued.length,
    estimated: estimated.length,
    estimateError: absolute && { p50: absolute.p50, p95: absolute.p95, max: absolute.max, bias: errors.reduce((sum, e) => sum + e, 0) / errors.length },
  };
}

const line = (f: ReturnType<typeof figures>): string => {
  const error = f.estimateError;
  const estimate = error
    ? `estimate error |p50| ${error.p50.toFixed(0)} s, |p95| ${error.p95.toFixed(0)} s, bias ${error.bias >= 0 ? '+' : ''}${error.bias.toFixed(0)} s`
    : 'no estimate';
  return `wait p50 ${f.wait.p50.toFixed(0)} s, p95 ${f.wait.p95.toFixed(0)} s (${f.queued} of ${LEARNERS} waited, ${f.estimated} given an estimate); ${estimate}`;
};

/** A seeded generator (mulberry32): the same spread of lifetimes on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

it(`queues ${LEARNERS} learners arriving over ${ARRIVALS_SECONDS} s for ${CAPACITY} labs of ${LIFETIME_SECONDS} s and prints the waits and the estimate's error`, async () => {
  const clock = { now: Date.parse('2026-03-02T09:00:00Z') };
  const data = await memoryDatabase(() => new Date(clock.now));
  const { config } = parseConfig({ instanceId: 'bench', curriculumDir: '/unused', scheduler: { maxLiveLessons: CAPACITY } });
  try {
    const cold = figures(await workload(data, clock, config, 1, () => LIFETIME_SECONDS));
    clock.now += 60_000;
    const warm = figures(await workload(data, clock, config, 2, () => LIFETIME_SECONDS));
    clock.now += 120_000;
    const random = seeded(36);
    const spread = figures(await workload(data, clock, config, 3, () => LIFETIME_SECONDS / 2 + random() * LIFETIME_SECONDS));
    console.log(
      `bench admission: capacity ${CAPACITY}, ${LEARNERS} learners over ${ARRIVALS_SECONDS} s, ${LIFETIME_SECONDS} s labs (the real queue and estimate on SQLite, virtual clock)`,
    );
    console.log(`  first run, no lab ended before the queue formed (no estimate until one has): ${line(cold)}`);
    console.log(`  second run, the first run's lifetimes known: ${line(warm)}`);
    console.log(`  third run, lifetimes spread 30–90 s (mean 60): ${line(spread)}`);
    writeBenchReport('admission', {
      capacity: CAPACITY,
      learners: LEARNERS,
      arrivalsSeconds: ARRIVALS_SECONDS,
      lifetimeSeconds: LIFETIME_SECONDS,
      cold,
      warm,
      spread,
    });
    for (const run of [cold, warm, spread]) expect(run.wait.count).toBe(LEARNERS);
  } finally {
    await data.close();
  }
});
