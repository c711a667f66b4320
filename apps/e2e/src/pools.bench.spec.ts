import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DATABASE_KINDS, distribution, testDatabaseUrl, writeBenchReport, type Distribution } from '@antidote/testing';
import { expect, it } from 'vitest';
import { antictlUp, runAntictl, type UpPlatform } from './support/antictl-up.js';
import { expClient, setSimFaults } from './support/exp-client.js';
import { untilFinal, type Outcome } from './support/time-to-ready.js';

/** Requests per single-request scenario (one at a time), members of the pool for hits, and the adaptive burst. */
const SAMPLES = Number(process.env.BENCH_POOLS_SAMPLES ?? 20);
const POOL_SIZE = Number(process.env.BENCH_POOLS_SIZE ?? 20);
const BURST = Number(process.env.BENCH_POOLS_BURST ?? 200);
const LESSONS = ['linux-basics', 'web-services', 'network-automation', 'jupyter-intro'];
const [SLUG] = LESSONS;
/** kube-sim's delays: a member takes seconds to build, as on a cluster with its images pulled. */
const DELAYS = { podStartDelayMs: 2000, jobRunDelayMs: 3000 };
const ADAPTIVE = { adaptive: true, min: 0, max: Number(process.env.BENCH_POOLS_MAX ?? 25), maxAge: 0 };
const DEMAND_WINDOW_SECONDS = 300;

/** A request answered with a lesson built before it was asked for: a claim of a warm member. */
const claimed = (outcome: Outcome, requestedAt: number) => outcome.ready && Date.parse(String(outcome.lesson.PhaseTimes.initializedAt)) < requestedAt;

interface Sample {
  ms: number;
  hit: boolean;
  failure?: string;
}

/** One learner through the /exp API: a session, a request, followed to READY; timed from the request. */
async function learner(platform: UpPlatform, ip: string, slug: string): Promise<Sample> {
  const exp = expClient(platform.api, ip);
  const session = await exp.newSession();
  const requestedAt = Date.now();
  try {
    const outcome = await untilFinal(exp, platform.api, ip, await exp.requestLesson(session, slug, 0), requestedAt);
    return { ms: outcome.ms, hit: claimed(outcome, requestedAt), ...(outcome.ready ? {} : { failure: outcome.why }) };
  } catch (error) {
    return { ms: Date.now() - requestedAt, hit: false, failure: String(error) };
  }
}

/** `count` learners one after another (each the only request in flight). */
async function oneByOne(platform: UpPlatform, count: number, subnet: number, slug = SLUG): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < count; i++) samples.push(await learner(platform, `10.${subnet}.0.${i + 1}`, slug));
  return samples;
}

/** `count` learners at once, spread over the four lessons. */
const burst = (platform: UpPlatform, count: number, subnet: number) =>
  Promise.all(Array.from({ length: count }, (_, i) => learner(platform, `10.${subnet}.${Math.floor(i / 250)}.${(i % 250) + 1}`, LESSONS[i % LESSONS.length])));

const timesOf = (samples: readonly Sample[]): Distribution | undefined => {
  const ok = samples.filter((sample) => !sample.failure).map((sample) => sample.ms);
  return ok.length ? distribution(ok) : undefined;
};

/** The burst's requests for the three adaptive lessons, and for the lesson without a pool (every fourth). */
const adaptiveOf = (samples: Sample[]) => samples.filter((_, i) => i % LESSONS.length !== 0);
const controlOf = (samples: Sample[]) => samples.filter((_, i) => i % LESSONS.length === 0);

interface Scenario {
  label: string;
  samples: Sample[];
}

const row = ({ label, samples }: Scenario) => {
  const times = timesOf(samples);
  const cells = [times?.p50, times?.p95, times?.max].map((ms) => (ms === undefined ? '-' : String(Math.round(ms))).padStart(8)).join('');
  return `  ${label.padEnd(38)} ${String(samples.length).padStart(4)} ${String(samples.filter((s) => s.hit).length).padStart(5)} ${cells} ${String(samples.filter((s) => s.failure).length).padStart(5)}`;
};

/**
 * Warm pools through the /exp API with every app a process (`antictl up`) and kube-sim's realistic
 * delays: time to READY for a pool hit, a pool miss and with no pool (one request at a time), then a
 * burst for four lessons, three with adaptive pools and one without, twice: the first burst is the
 * adaptive pools' demand, the second is answered by the pools it sized. Figures only; nothing about speed is asserted.
 */
it.each(DATABASE_KINDS)('times warm-pool hits, misses and no pool, and adaptive pools under a burst, on %s', { timeout: 1_800_000 }, async (kind) => {
  const { url } = await testDatabaseUrl(kind);
  const platform = await antictlUp({
    config: {
      database: { url },
      scheduler: { maxLiveLessons: 0, poolBudget: 4 * ADAPTIVE.max, poolIntervalSeconds: 1, poolDemandWindowSeconds: DEMAND_WINDOW_SECONDS },
      api: { rateLimitPerMinute: 0, maxInFlightRequests: 0, newSessionsPerAddress: { count: 0 }, newLabsPerAddress: { count: 0 } },
      // The scenario lesson's pool is set by `antictl pool resize`; the other three are adaptive from the start.
      warmPools: Object.fromEntries(LESSONS.slice(1).map((slug) => [slug, ADAPTIVE])),
    },
    flags: ['--restart'],
  });
  const token = (JSON.parse(readFileSync(join(platform.dir, 'platform.json'), 'utf8')) as { adminToken: string }).adminToken;
  const pool = async (...args: string[]) => {
    const result = await runAntictl(['--json', 'pool', ...args, '--api', platform.api, '--token', token]);
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as unknown;
  };
  const poolOf = async (slug: string) => ((await pool('list')) as { lesson: string; ready: number; building: number }[]).find((p) => p.lesson === slug);
  try {
    await setSimFaults(platform.kubeSim, DELAYS);
    const none = await oneByOne(platform, SAMPLES, 40);
    await pool('resize', SLUG, String(POOL_SIZE));
    await expect.poll(async () => (await poolOf(SLUG))?.ready, { timeout: 600_000, interval: 1000 }).toBe(POOL_SIZE);
    const hits = await oneByOne(platform, Math.min(SAMPLES, POOL_SIZE), 41);
    // Resized to 0: drained, and every request misses (a claim tried, then the normal CREATE).
    await pool('resize', SLUG, '0');
    await expect.poll(async () => (await poolOf(SLUG))?.building, { timeout: 600_000, interval: 1000 }).toBe(0);
    const misses = await oneByOne(platform, SAMPLES, 42);
    // No pool again: in the bursts it is the lesson without a pool, beside three adaptive ones.
    await pool('reset', SLUG);

    const first = await burst(platform, BURST, 50);
    // The first burst is the adaptive pools' demand: wait for what it sized them to.
    const sized = async () =>
      ((await pool('list')) as { lesson: string; ready: number }[]).filter((p) => p.lesson !== SLUG).reduce((sum, p) => sum + p.ready, 0);
    await expect.poll(async () => (await sized()) > 0, { timeout: 600_000, interval: 1000 }).toBe(true);
    let previous = -1;
    await expect.poll(async () => previous === (previous = await sized()), { timeout: 600_000, interval: 5000 }).toBe(true);
    const warm = previous;
    const second = await burst(platform, BURST, 51);
    const scenarios: Scenario[] = [
      { label: 'no pool', samples: none },
      { label: 'pool hit', samples: hits },
      { label: 'pool miss (pool resized to 0)', samples: misses },
      { label: 'burst 1: 3 adaptive lessons', samples: adaptiveOf(first) },
      { label: 'burst 1: the lesson without pool', samples: controlOf(first) },
      { label: `burst 2: 3 adaptive lessons (${warm} warm)`, samples: adaptiveOf(second) },
      { label: 'burst 2: the lesson without pool', samples: controlOf(second) },
    ];
    console.log(
      [
        `bench pools on ${kind}: time to READY through the /exp API (ms, from the request), every app a process, kube-sim pods ${DELAYS.podStartDelayMs} ms, jobs ${DELAYS.jobRunDelayMs} ms, load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
        `  ${'scenario'.padEnd(38)} ${'n'.padStart(4)} ${'hits'.padStart(5)} ${'p50'.padStart(8)}${'p95'.padStart(8)}${'max'.padStart(8)} ${'fail'.padStart(5)}`,
        ...scenarios.map(row),
        ...[...new Set(scenarios.flatMap((s) => s.samples.flatMap((sample) => (sample.failure ? [sample.failure] : []))))]
          .slice(0, 5)
          .map((why) => `  failure: ${why}`),
      ].join('\n'),
    );
    const json = writeBenchReport(`pools-${kind}`, {
      delays: DELAYS,
      adaptive: { ...ADAPTIVE, lessons: LESSONS.slice(1), demandWindowSeconds: DEMAND_WINDOW_SECONDS, warmBeforeSecondBurst: warm },
      loadAverage: loadavg(),
      scenarios: scenarios.map(({ label, samples }) => ({
        label,
        n: samples.length,
        hits: samples.filter((s) => s.hit).length,
        failures: samples.filter((s) => s.failure).length,
        timeToReadyMs: timesOf(samples),
      })),
    });
    console.log(`  figures: ${json}`);
  } finally {
    expect(await platform.stop()).toBe(0);
  }
});
