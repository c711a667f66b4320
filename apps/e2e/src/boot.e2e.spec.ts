import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { antictlUp, type UpPlatform } from './support/antictl-up.js';
import { DEVICE_IMAGES, sampleCurriculumWithRouter, upsAtCli } from './support/boot-curriculum.js';
import { connectionsOf, setSimFaults, simEndpoints } from './support/exp-client.js';
import { bootingEstimate, estimateError, neverDecreases, startLab, streamedHealth, type LabStart } from './support/lab-start.js';

/**
 * How much of a real boot the run waits: 1 gives the router 60 s and the switch 30 s; the default keeps
 * the run to a few tens of seconds (15 s and 7.5 s). The host boots in 2 s either way.
 */
const SCALE = Number(process.env.BOOT_E2E_SCALE ?? 0.25);
/** A device that answers its SSH port at 60 % of its boot, logins at 75 %, its CLI at the end; ±5 % per pod. */
const booting = (cliMs: number) => ({ portMs: Math.round(cliMs * 0.6), loginMs: Math.round(cliMs * 0.75), cliMs: Math.round(cliMs), jitter: 0.05 });
const PROFILES = { [DEVICE_IMAGES.router]: booting(60_000 * SCALE), [DEVICE_IMAGES.switch]: booting(30_000 * SCALE), [DEVICE_IMAGES.host]: booting(2000) };
const LESSONS = ['routing', 'network-automation', 'linux-basics'];
/** How far a later lab's estimate may be from its real time to READY (a share of its time from BOOTING). */
const ESTIMATE_ERROR = 0.2;

/**
 * The sample curriculum (with a router lesson added) on a platform whose devices boot like real ones:
 * kube-sim's boot profiles make a router, a switch and a host answer their port, then logins, then their
 * CLI over tens of seconds. A first wave of one lab per lesson, then a second of two per lesson, each
 * learner following their lab's event stream while polling it, as the web page does.
 */
describe('labs whose devices boot like real ones (antictl up, boot profiles)', () => {
  let platform: UpPlatform;
  beforeAll(async () => {
    platform = await antictlUp({ flags: ['--curriculum', sampleCurriculumWithRouter()], config: { api: { rateLimitPerMinute: 0 } } });
    await setSimFaults(platform.kubeSim, { bootProfiles: PROFILES });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const wave = (slugs: string[], subnet: number): Promise<LabStart[]> => Promise.all(slugs.map((slug, i) => startLab(platform.api, `10.${subnet}.0.${i + 1}`, slug)));
  /** Connections each endpoint's Service accepted once its device was up (its CLI answering, or its logins working where it has no readiness check). */
  const connectionsOnceUp = async (lab: LabStart): Promise<Record<string, number>> => {
    const endpoints = await simEndpoints(platform.kubeSim, `antidote-local-${lab.id}`);
    return Object.fromEntries(endpoints.filter((endpoint) => endpoint.kind === 'Service').map((endpoint) => [endpoint.name, connectionsOf(endpoint, upsAtCli(endpoint.image)).up]));
  };

  it('brings every lab to READY with a health that only grows, probes no endpoint again once up, and estimates the later labs of each image within 20 %', { timeout: 600_000 }, async () => {
    const first = await wave(LESSONS, 40);
    const second = await wave([...LESSONS, ...LESSONS], 41);
    const lines: string[] = [];
    for (const lab of [...first, ...second]) {
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
      const took = Date.parse(lab.final.PhaseTimes.readyAt) - Date.parse(lab.final.PhaseTimes.bootingAt);
      lines.push(`  ${lab.slug.padEnd(20)} ${(took / 1000).toFixed(1).padStart(6)} s BOOTING→READY, estimate off by ${(100 * estimateError(lab)).toFixed(1).padStart(5)} %`);
    }
    console.log([`boot e2e at scale ${SCALE}: the first wave, then the second (its estimates from the first)`, ...lines].join('\n'));
    for (const lab of second) expect(estimateError(lab), `${lab.slug} ${lab.id}`).toBeLessThanOrEqual(ESTIMATE_ERROR);
  });
});
