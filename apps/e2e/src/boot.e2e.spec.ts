import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { antictlUp, type UpPlatform } from './support/antictl-up.js';
import { DEVICE_IMAGES, sampleCurriculumWithRouter, upsAtCli } from './support/boot-curriculum.js';
import { connectionsOf, setSimFaults, simEndpoints } from './support/exp-client.js';
import { bootingEstimate, estimateError, neverDecreases, startLab, streamedHealth, type LabStart } from './support/lab-start.js';

/**
 * How much of a real boot the run waits: 1 gives the router 60 s and the switch 30 s; the default keeps
 * the run to a few tens of seconds (12 s and 6 s). The host boots in 2 s either way.
 */
const SCALE = Number(process.env.BOOT_E2E_SCALE ?? 0.2);
/** A cluster's own pace, as the benches take it: a pod starts in 2 s, a configuration job runs 1 s. */
const CLUSTER = { podStartDelayMs: 2000, jobRunDelayMs: 1000 };
/** A device that answers its SSH port at 60 % of its boot, logins at 75 %, its CLI at the end; ±5 % per pod. */
const booting = (cliMs: number) => ({ portMs: Math.round(cliMs * 0.6), loginMs: Math.round(cliMs * 0.75), cliMs: Math.round(cliMs), jitter: 0.05 });
const PROFILES = { [DEVICE_IMAGES.router]: booting(60_000 * SCALE), [DEVICE_IMAGES.switch]: booting(30_000 * SCALE), [DEVICE_IMAGES.host]: booting(2000) };
const LESSONS = ['routing', 'network-automation', 'linux-basics'];
/** How far a later lab's estimate may be from its real time to READY (a share of its time from BOOTING). */
const ESTIMATE_ERROR = 0.2;

/**
 * The sample curriculum (with a router lesson added) on a platform whose devices boot like real ones:
 * kube-sim's boot profiles make a router, a switch and a host answer their port, then logins, then their
 * CLI over tens of seconds. Three waves of one lab per lesson, one after the other, each learner following
 * their lab's event stream while polling it, as the web page does.
 */
describe('labs whose devices boot like real ones (antictl up, boot profiles)', () => {
  let platform: UpPlatform;
  beforeAll(async () => {
    platform = await antictlUp({ flags: ['--curriculum', sampleCurriculumWithRouter()], config: { api: { rateLimitPerMinute: 0 } } });
    // The apps' first lab loads what they load lazily (the healthchecker's SSH client) and compiles their hot
    // paths: a host's, before the devices boot, so the first wave's starts are those of a running platform.
    expect((await startLab(platform.api, '10.39.0.1', 'linux-basics')).final.Status).toBe('READY');
    await setSimFaults(platform.kubeSim, { ...CLUSTER, bootProfiles: PROFILES });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  /** One lab of each lesson at once, each wave the same load (the estimates of a wave come from the waves before it). */
  const wave = (slugs: string[], subnet: number): Promise<LabStart[]> =>
    Promise.all(slugs.map((slug, i) => startLab(platform.api, `10.${subnet}.0.${i + 1}`, slug)));
  /** Connections each endpoint's Service accepted once its device was up (its CLI answering, or its logins working where it has no readiness check). */
  const connectionsOnceUp = async (lab: LabStart): Promise<Record<string, number>> => {
    const endpoints = await simEndpoints(platform.kubeSim, `antidote-local-${lab.id}`);
    return Object.fromEntries(
      endpoints.filter((endpoint) => endpoint.kind === 'Service').map((endpoint) => [endpoint.name, connectionsOf(endpoint, upsAtCli(endpoint.image)).up]),
    );
  };

  it(
    'brings every lab to READY with a health that only grows, probes no endpoint again once up, and estimates the later labs of each image within 20 %',
    { timeout: 600_000 },
    async () => {
      const first = await wave(LESSONS, 40);
      const later = [...(await wave(LESSONS, 41)), ...(await wave(LESSONS, 42))];
      const took = (lab: LabStart) => Date.parse(lab.final.PhaseTimes.readyAt) - Date.parse(lab.final.PhaseTimes.bootingAt);
      console.log(
        [
          `boot e2e at scale ${SCALE}: three waves of ${LESSONS.join(', ')}, the later ones estimated from those before`,
          ...[...first, ...later].map(
            (lab) =>
              `  ${lab.slug.padEnd(20)} ${(took(lab) / 1000).toFixed(1).padStart(6)} s BOOTING→READY, estimate ${bootingEstimate(lab)} off by ${(100 * estimateError(lab)).toFixed(1).padStart(5)} %`,
          ),
        ].join('\n'),
      );
      for (const lab of [...first, ...later]) {
        const summary = `${lab.slug} ${lab.id}: ${JSON.stringify(lab.final.PhaseTimes)}, health streamed ${streamedHealth(lab).join(',')}, polled ${[...new Set(lab.polledHealth)].join(',')}`;
        expect(lab.final, summary).toMatchObject({ Status: 'READY', Error: false });
        expect(lab.final.HealthyTests).toBe(lab.final.TotalTests);
        expect(neverDecreases(streamedHealth(lab)), summary).toBe(true);
        expect(neverDecreases(lab.polledHealth), summary).toBe(true);
        expect(bootingEstimate(lab), summary).toBeDefined();
        const probedOnceUp = await connectionsOnceUp(lab);
        expect(Object.keys(probedOnceUp).length).toBeGreaterThan(0);
        // The probe that found the device up, at most (none when a probe that began while it booted ended after): never one more.
        for (const [endpoint, count] of Object.entries(probedOnceUp)) expect(count, `${lab.slug} ${endpoint}`).toBeLessThanOrEqual(1);
      }
      for (const lab of later)
        expect(
          estimateError(lab),
          `${lab.slug} ${lab.id}: took ${took(lab)} ms, estimated ${bootingEstimate(lab)}, ${JSON.stringify(lab.final.PhaseTimes)}`,
        ).toBeLessThanOrEqual(ESTIMATE_ERROR);
    },
  );
});
