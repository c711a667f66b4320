import { NETWORK_AUTOMATION, distribution, writeBenchReport } from '@antidote/testing';
import { expect, it } from 'vitest';
import { antictlUp } from './support/antictl-up.js';
import { DEVICE_IMAGES, sampleCurriculumWithRouter, upsAtCli } from './support/boot-curriculum.js';
import { connectionsOf, expClient, setSimFaults, simEndpoints, simRequests, type SimEndpoint } from './support/exp-client.js';
import { estimateError, startLab, type LabStart } from './support/lab-start.js';
import { lessonTimeline, timelineLines, watchCluster } from './support/lesson-timeline.js';
import { burst, type HeldLesson } from './support/platform-usage.js';

const SINGLES = Number(process.env.BENCH_FLOOR_SINGLES ?? 5);
const TOGETHER = Number(process.env.BENCH_FLOOR_TOGETHER ?? 32);
const WARM_UP = Number(process.env.BENCH_PLATFORM_WARM_UP_LESSONS ?? 20);
const UNLIMITED = { scheduler: { maxLiveLessons: 0 }, api: { rateLimitPerMinute: 0, maxInFlightRequests: 0 } };
const { slug: SLUG, ...LESSON } = NETWORK_AUTOMATION;
const SLOW = { podStartDelayMs: 2000, jobRunDelayMs: 3000 };
/** What the cluster itself takes: endpoint pods start, then the configuration Jobs' pods start and run, then the lesson's readyDelay. */
const FLOOR_MS = SLOW.podStartDelayMs + SLOW.podStartDelayMs + SLOW.jobRunDelayMs + LESSON.readyDelayMs;
const ms = (value: number) => `${Math.round(value)} ms`;

/**
 * READY at the floor: one lesson at a time at pods 2 s / jobs 3 s (time to READY as the learner's stream
 * sees it, above what the cluster itself takes), then TOGETHER at once; and the timeline of one lesson —
 * every step seen from outside the apps — to show where the time above the floor goes.
 */
it(
  `takes ${SINGLES} lessons one at a time, then ${TOGETHER} at once, to READY above the ${FLOOR_MS} ms floor, with the timeline of one`,
  { timeout: 1_800_000 },
  async () => {
    const platform = await antictlUp({ config: UNLIMITED, flags: ['--restart'] });
    try {
      await setSimFaults(platform.kubeSim, { podStartDelayMs: 0, jobRunDelayMs: 0 });
      await burst(platform, SLUG, WARM_UP, 50);
      await setSimFaults(platform.kubeSim, SLOW);
      const watch = watchCluster(platform.kubeSim);
      const singles = [];
      for (let i = 0; i < SINGLES; i++) singles.push(await startLab(platform.api, `10.51.0.${i + 1}`, SLUG));
      const last = singles.at(-1)!;
      const namespace = `antidote-local-${last.id}`;
      const timeline = lessonTimeline(last, namespace, await simRequests(platform.kubeSim), watch.changes, await simEndpoints(platform.kubeSim, namespace));
      await watch.stop();
      const together = await burst(platform, SLUG, TOGETHER, 52);
      const phases = await phasesAboveTheFloor(platform.api, together.held);
      for (const lab of singles) expect(lab.final.Status).toBe('READY');
      const aboveFloor = singles.map((lab) => lab.events.at(-1)!.at - lab.requestedAt - FLOOR_MS);
      const single = distribution(aboveFloor);
      console.log(
        [
          `bench READY at the floor: ${SLUG} at pods ${SLOW.podStartDelayMs} ms / jobs ${SLOW.jobRunDelayMs} ms, floor ${FLOOR_MS} ms (pods + job pod + job + readyDelay), SQLite, every app a process`,
          `  one at a time (${SINGLES}): above the floor median ${ms(single.p50)} (min ${ms(single.min)}, max ${ms(single.max)}): ${aboveFloor.map(ms).join(', ')}`,
          `  ${TOGETHER} at once: above the floor p50 ${ms(together.timeToReadyMs!.p50 - FLOOR_MS)}, p95 ${ms(together.timeToReadyMs!.p95 - FLOOR_MS)}, failures ${together.failures.length}`,
          `    where it goes (p50 / p95 of each step, beyond what the cluster itself takes): ${phases.map(({ step, p50, p95 }) => `${step} ${ms(p50)} / ${ms(p95)}`).join(', ')}`,
          `  the last lesson alone, step by step (ms after its request):`,
          ...timelineLines(timeline),
        ].join('\n'),
      );
      console.log(
        `  figures: ${writeBenchReport('ready-floor', { lesson: SLUG, ...SLOW, floorMs: FLOOR_MS, singleAboveFloorMs: aboveFloor, single, together: { phases, ...together, samples: undefined, held: undefined, aboveFloorMs: { p50: together.timeToReadyMs!.p50 - FLOOR_MS, p95: together.timeToReadyMs!.p95 - FLOOR_MS } }, timeline })}`,
      );
    } finally {
      expect(await platform.stop()).toBe(0);
    }
  },
);

/** Each step of a burst's lessons, from the learner's request to its stream's READY, less what the cluster itself takes in it (p50 / p95). */
async function phasesAboveTheFloor(api: string, held: readonly HeldLesson[]) {
  const steps = await Promise.all(
    held.map(async ({ ip, id, requestedAt }) => {
      const lab = await expClient(api, ip).get<{ PhaseTimes: Record<string, string> }>(`/exp/livelesson/${id}`);
      const at = (key: string) => Date.parse(lab.body.PhaseTimes[key]);
      return {
        'request → INITIALIZED': at('initializedAt') - requestedAt!,
        'INITIALIZED → BOOTING': at('bootingAt') - at('initializedAt'),
        'BOOTING → CONFIGURATION': at('configurationAt') - at('bootingAt') - SLOW.podStartDelayMs,
        'CONFIGURATION → READY': at('readyAt') - at('configurationAt') - (SLOW.podStartDelayMs + SLOW.jobRunDelayMs + LESSON.readyDelayMs),
      };
    }),
  );
  return Object.keys(steps[0] ?? {}).map((step) => {
    const { p50, p95 } = distribution(steps.map((times) => times[step as keyof (typeof steps)[number]]));
    return { step, p50, p95 };
  });
}

/** Boot profiles of the second run: 1 is a router of 60 s, a switch of 30 s, a host of 2 s (±10 % each pod, as the realistic profiles). */
const BOOT_SCALE = Number(process.env.BENCH_BOOT_SCALE ?? 1);
const BOOT_WAVES = Number(process.env.BENCH_BOOT_WAVES ?? 3);
const LESSONS = ['routing', 'network-automation', 'linux-basics'];
const booting = (cliMs: number) => ({ portMs: Math.round(cliMs * 0.6), loginMs: Math.round(cliMs * 0.75), cliMs: Math.round(cliMs), jitter: 0.1 });

/** How long after its device was ready each endpoint of a lab was found up (its progress event), by endpoint. */
function foundLate(lab: LabStart, endpoints: readonly SimEndpoint[]): number[] {
  return lab.events.flatMap((event) => {
    const pod = endpoints.find((endpoint) => endpoint.kind === 'Pod' && endpoint.name === event.data.endpoint);
    if (event.name !== 'progress' || !pod?.boot || !event.data.at) return [];
    const readyAfter = upsAtCli(pod.image) ? pod.boot.cliMs : pod.boot.loginMs;
    return [Date.parse(event.data.at) - (pod.boot.startedAt + (pod.boot.rebootMs ?? 0) + readyAfter)];
  });
}

/**
 * Devices that boot like real ones: waves of one lab per lesson of the sample curriculum (with a router),
 * one wave after the other; per lab the estimate it was given entering BOOTING against its real READY
 * (the second and later waves' are drawn from the earlier ones), how late each endpoint was found up
 * after its device was ready, and the probes each endpoint took while booting and once ready.
 */
it(`boots ${BOOT_WAVES} waves of labs whose devices boot like real ones (scale ${BOOT_SCALE}): estimates and probes`, { timeout: 1_800_000 }, async () => {
  const platform = await antictlUp({ flags: ['--curriculum', sampleCurriculumWithRouter()], config: UNLIMITED });
  try {
    // A host's lab first, before the devices boot: what the apps load lazily and compile is not a wave's cost.
    expect((await startLab(platform.api, '10.59.0.1', 'linux-basics')).final.Status).toBe('READY');
    await setSimFaults(platform.kubeSim, {
      bootProfiles: {
        [DEVICE_IMAGES.router]: booting(60_000 * BOOT_SCALE),
        [DEVICE_IMAGES.switch]: booting(30_000 * BOOT_SCALE),
        [DEVICE_IMAGES.host]: booting(2000),
      },
    });
    const rows: {
      wave: number;
      slug: string;
      bootingToReadyMs: number;
      estimateError: number;
      foundLateMs: number[];
      probes: Record<string, { booting: number; up: number }>;
    }[] = [];
    for (let wave = 0; wave < BOOT_WAVES; wave++) {
      const labs = await Promise.all(LESSONS.map((slug, i) => startLab(platform.api, `10.${60 + wave}.0.${i + 1}`, slug)));
      for (const lab of labs) {
        expect(lab.final.Status).toBe('READY');
        const endpoints = await simEndpoints(platform.kubeSim, `antidote-local-${lab.id}`);
        const probes = Object.fromEntries(
          endpoints.filter((endpoint) => endpoint.kind === 'Service').map((endpoint) => [endpoint.name, connectionsOf(endpoint, upsAtCli(endpoint.image))]),
        );
        const { bootingAt, readyAt } = lab.final.PhaseTimes;
        rows.push({
          wave,
          slug: lab.slug,
          bootingToReadyMs: Date.parse(readyAt) - Date.parse(bootingAt),
          estimateError: estimateError(lab),
          foundLateMs: foundLate(lab, endpoints),
          probes,
        });
      }
    }
    const later = rows.filter((row) => row.wave > 0).map((row) => row.estimateError);
    const late = rows.flatMap((row) => row.foundLateMs);
    console.log(
      [
        `bench boot: ${BOOT_WAVES} waves of ${LESSONS.join(', ')}; router ${60 * BOOT_SCALE} s, switch ${30 * BOOT_SCALE} s, host 2 s to their CLI (±10 %), SQLite, every app a process`,
        `  ${'wave'.padEnd(5)}${'lesson'.padEnd(20)}${'BOOTING→READY'.padStart(14)}${'estimate off'.padStart(14)}  found up after ready (ms)   probes per endpoint (while booting / once up)`,
        ...rows.map(
          (row) =>
            `  ${String(row.wave).padEnd(5)}${row.slug.padEnd(20)}${`${(row.bootingToReadyMs / 1000).toFixed(1)} s`.padStart(14)}${`${(100 * row.estimateError).toFixed(1)} %`.padStart(14)}  ${row.foundLateMs
              .map((ms) => String(Math.round(ms)))
              .join(', ')
              .padEnd(25)}  ${Object.entries(row.probes)
              .map(([name, p]) => `${name} ${p.booting}/${p.up}`)
              .join(', ')}`,
        ),
        `  estimates of the later waves: off by median ${(100 * distribution(later).p50).toFixed(1)} %, at most ${(100 * distribution(later).max).toFixed(1)} %`,
        `  endpoints found up after their device was ready: median ${Math.round(distribution(late).p50)} ms, p95 ${Math.round(distribution(late).p95)} ms, at most ${Math.round(distribution(late).max)} ms`,
      ].join('\n'),
    );
    console.log(
      `  figures: ${writeBenchReport('boot', { scale: BOOT_SCALE, waves: BOOT_WAVES, rows, laterEstimateError: distribution(later), foundLateMs: distribution(late) })}`,
    );
  } finally {
    expect(await platform.stop()).toBe(0);
  }
});
