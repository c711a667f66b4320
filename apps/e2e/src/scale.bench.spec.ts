import { NETWORK_AUTOMATION, writeBenchReport } from '@antidote/testing';
import { expect, it } from 'vitest';
import { antictlUp, runAntictl, type UpPlatform } from './support/antictl-up.js';
import { expClient, setSimFaults } from './support/exp-client.js';
import { APPS, burst, cpuBetween, kubeCalls, usages, type App, type HeldLesson } from './support/platform-usage.js';

/**
 * Lessons held at each step (cumulative): the growth of calls, CPU and memory from 10 to over 1,000. The
 * last step adds 1,000 at once, so 1,000 learners' event streams are open together while it comes up.
 */
const LEVELS = (process.env.BENCH_SCALE_LEVELS ?? '10,100,1100').split(',').map(Number);
/** Keep-alives sent at once in a keep-alive round (as many browsers would). */
const KEEPALIVE_CONCURRENCY = 50;
/**
 * How long the platform holds the lessons, untouched, before RSS is sampled again: right after a step each
 * app still holds the heap its burst grew (V8 gives it back once allocation has been quiet for a while).
 */
const SETTLE_SECONDS = Number(process.env.BENCH_SCALE_SETTLE_SECONDS ?? 60);
const { slug: SLUG } = NETWORK_AUTOMATION;

interface Step {
  held: number;
  added: number;
  seconds: number;
  failures: number;
  /** Each distinct reason a lesson of the step did not reach READY, with how many. */
  failureReasons: Record<string, number>;
  cpuMsPerAddedLesson: Record<App | 'total', number>;
  kubeCallsPerAddedLesson: number;
  /** Event streams open at once while the step's lessons came up (one per learner, as the front-end). */
  eventStreams: number;
  rssMiB: Record<App, number>;
  openWatches: number;
  keepAlive: { seconds: number; failures: number; kubeCalls: number; cpuMs: Record<App | 'total', number> };
  reaperPass: { seconds: number; kubeCalls: number; actions: number };
}

const countBy = (values: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
};

const simStats = async (platform: UpPlatform) => (await platform.kubeSim.must('GET', '/_sim/stats')).body as unknown as { openWatches: number };

/** Every held lesson's learner asks again for the stage it is at — the original's keep-alive ("BOOP"). */
async function keepAliveRound(platform: UpPlatform, held: HeldLesson[]): Promise<Step['keepAlive']> {
  const before = usages(platform);
  const callsBefore = await kubeCalls(platform);
  const started = Date.now();
  let failures = 0;
  for (let at = 0; at < held.length; at += KEEPALIVE_CONCURRENCY) {
    await Promise.all(
      held.slice(at, at + KEEPALIVE_CONCURRENCY).map(async ({ ip, session, id }) => {
        const answer = await expClient(platform.api, ip).post<{ id: string }>('/exp/livelesson', { sessionId: session, lessonSlug: SLUG, lessonStage: 0 });
        if (answer.status !== 200 || answer.body.id !== id) failures++;
      }),
    );
  }
  const seconds = (Date.now() - started) / 1000;
  return { seconds, failures, kubeCalls: (await kubeCalls(platform)) - callsBefore, cpuMs: cpuBetween(before, usages(platform)) };
}

/** One reaper pass, asked for as a dry run over NATS (`antictl reap`): its time and Kubernetes calls as the reaper reports them. */
async function reaperPass(platform: UpPlatform): Promise<Step['reaperPass']> {
  const result = await runAntictl(['--json', 'reap', '--dry-run', '--nats', platform.nats, '--credentials', `${platform.dir}/nats-credentials.json`]);
  expect(result.code, result.stderr).toBe(0);
  const reply = JSON.parse(result.stdout) as { actions: unknown[]; pass: { durationMs: number; kubeCalls: number } };
  return { seconds: reply.pass.durationMs / 1000, kubeCalls: reply.pass.kubeCalls, actions: reply.actions.length };
}

/**
 * The platform holding many live lessons at once (every app a process, `antictl up`, SQLite, kube-sim's
 * delays zero): lessons are brought to READY in steps (LEVELS: 10, 100, then 1,000 more) and held; at each step, what the step
 * cost (CPU per added lesson per app, the scheduler's Kubernetes calls), every app's RSS while holding,
 * kube-sim's open watch streams, a keep-alive round of every held lesson and one reaper pass; then every
 * app's RSS once the platform has held them untouched for SETTLE_SECONDS. Figures only; nothing about
 * speed is asserted.
 */
it(`holds ${LEVELS.at(-1)} live lessons READY, in steps of ${LEVELS.join(' / ')}`, { timeout: 3_600_000 }, async () => {
  // Every learner at once: no per-client rate and no cluster cap; lessons live for the whole run.
  const platform = await antictlUp({
    config: { liveLessonTTL: 240, scheduler: { maxLiveLessons: 0 }, api: { rateLimitPerMinute: 0, maxInFlightRequests: 0, newSessionsPerAddress: { count: 0 }, newLabsPerAddress: { count: 0 } } },
    flags: ['--restart'],
  });
  try {
    await setSimFaults(platform.kubeSim, { podStartDelayMs: 0, jobRunDelayMs: 0 });
    const idle = usages(platform);
    const held: HeldLesson[] = [];
    const steps: Step[] = [];
    for (const [index, level] of LEVELS.entries()) {
      const added = level - held.length;
      const run = await burst(platform, SLUG, added, 40 + index);
      held.push(...run.held);
      const rss = usages(platform);
      steps.push({
        held: held.length,
        added,
        seconds: run.seconds,
        failures: run.failures.length,
        failureReasons: countBy(run.failures),
        cpuMsPerAddedLesson: run.cpuMsPerLesson,
        kubeCallsPerAddedLesson: run.kubeCallsPerLesson,
        eventStreams: added,
        rssMiB: Object.fromEntries(APPS.map((app) => [app, rss[app].rssMiB])) as Record<App, number>,
        openWatches: (await simStats(platform)).openWatches,
        keepAlive: await keepAliveRound(platform, held),
        reaperPass: await reaperPass(platform),
      });
    }
    const peak = usages(platform);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
    const settled = usages(platform);
    const cell = (value: number, digits = 0, width = 8) => value.toFixed(digits).padStart(width);
    console.log(
      [
        `bench scale: ${SLUG} lessons brought to READY and held, every app a process (antictl up), SQLite, kube-sim delays zero`,
        `  ${'held'.padStart(5)} ${'added'.padStart(6)} ${'s'.padStart(7)} ${'fail'.padStart(5)} ${'cpu ms'.padStart(8)} ${'calls'.padStart(6)} ${'streams'.padStart(8)} ${'watches'.padStart(8)} ${'keep-alive s'.padStart(13)} ${'k-a calls'.padStart(10)} ${'reap s'.padStart(7)} ${'reap calls'.padStart(11)}  RSS MiB (api / scheduler / healthchecker / reaper)`,
        ...steps.map(
          (step) =>
            `  ${String(step.held).padStart(5)} ${String(step.added).padStart(6)} ${cell(step.seconds, 1, 7)} ${String(step.failures + step.keepAlive.failures).padStart(5)} ${cell(step.cpuMsPerAddedLesson.total)} ${cell(step.kubeCallsPerAddedLesson, 1, 6)} ${String(step.eventStreams).padStart(8)} ${String(step.openWatches).padStart(8)} ${cell(step.keepAlive.seconds, 2, 13)} ${String(step.keepAlive.kubeCalls).padStart(10)} ${cell(step.reaperPass.seconds, 2, 7)} ${String(step.reaperPass.kubeCalls).padStart(11)}  ${APPS.map((app) => step.rssMiB[app].toFixed(0)).join(' / ')}`,
        ),
        `  cpu ms = the four apps' user + system time per added lesson; calls = the scheduler's Kubernetes calls per added lesson; streams = event streams open at once in the step`,
        ...steps.flatMap((step) => Object.entries(step.failureReasons).map(([why, count]) => `  failed at ${step.held} held: ${count} × ${why}`)),
        `  RSS MiB holding ${held.length}, ${SETTLE_SECONDS} s after the last step: ${APPS.map((app) => `${app} ${settled[app].rssMiB.toFixed(0)}`).join(', ')}`,
        `  idle RSS MiB: ${APPS.map((app) => `${app} ${idle[app].rssMiB.toFixed(0)}`).join(', ')}; peak: ${APPS.map((app) => `${app} ${peak[app].peakRssMiB.toFixed(0)}`).join(', ')}`,
      ].join('\n'),
    );
    const json = writeBenchReport('platform-scale', {
      lesson: NETWORK_AUTOMATION,
      levels: LEVELS,
      idleRssMiB: Object.fromEntries(APPS.map((app) => [app, idle[app].rssMiB])),
      peakRssMiB: Object.fromEntries(APPS.map((app) => [app, peak[app].peakRssMiB])),
      settled: { seconds: SETTLE_SECONDS, rssMiB: Object.fromEntries(APPS.map((app) => [app, settled[app].rssMiB])) },
      steps,
    });
    console.log(`  figures: ${json}`);
  } finally {
    expect(await platform.stop()).toBe(0);
  }
});
