import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import { schedulerService } from '@antidote/scheduler';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT } from './support/antictl-up.js';
import { neverDecreases } from './support/lab-start.js';

const HEALTHCHECKER = join(ROOT, 'apps', 'healthchecker', 'dist', 'main.js');
/** The switches boot long enough that the host is up well before them, on any machine; the host is ready at once. */
const PROFILES = { '*vqfx*': { portMs: 12_000, loginMs: 16_000, cliMs: 20_000 }, '*utility*': { portMs: 0, loginMs: 0, cliMs: 0 } };

/** The built healthchecker as a process of its own (as deployed), so it can be killed outright. */
function healthcheckerProcess(config: Record<string, unknown>) {
  const file = join(mkdtempSync(join(tmpdir(), 'boot-faults-')), 'antidote-config.json');
  writeFileSync(file, JSON.stringify({ ...config, logging: { level: 'info' } }));
  let child: ChildProcess | undefined;
  let output = '';
  return {
    async start(): Promise<void> {
      output = '';
      const started = spawn(process.execPath, [HEALTHCHECKER], {
        env: { PATH: process.env.PATH ?? '', ANTIDOTE_CONFIG: file },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      for (const stream of [started.stdout, started.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      // "ready" is logged once its bus consumer is subscribed.
      await vi.waitFor(
        () => {
          if (started.exitCode !== null) throw new Error(`the healthchecker exited (${started.exitCode}):\n${output}`);
          if (!/healthchecker ready/.test(output)) throw new Error(`the healthchecker is not ready yet:\n${output}`);
        },
        { timeout: 60_000, interval: 100 },
      );
    },
    /** SIGKILL: no shutdown hook runs, its in-flight reply is never sent. */
    async kill(): Promise<void> {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * A lab whose switches boot for 20 s while the scheduler asks the healthchecker in attempts of 2 s: the
 * healthchecker killed mid-boot, or nats-server restarted mid-boot. Either way the lab reaches READY,
 * its recorded health never goes down (sampled every 20 ms from its row), and the endpoint found up
 * before the fault is not probed again after it (kube-sim's count of connections to it once ready).
 */
describe('a long boot through faults (kube-sim boot profiles, nats-server, SQLite, the healthchecker a process)', () => {
  let p: TestPlatform<'scheduler', KubeSim>;
  let healthchecker: ReturnType<typeof healthcheckerProcess>;

  beforeAll(async () => {
    if (!existsSync(HEALTHCHECKER)) throw new Error(`${HEALTHCHECKER} is missing: build first (npx tsc -b tsconfig.build.json)`);
    p = await startTestPlatform('sqlite', {
      cluster: startKubeSim,
      services: { scheduler: schedulerService },
      faults: { podStartDelayMs: 200, jobRunDelayMs: 200, bootProfiles: PROFILES },
      overrides: {
        timeouts: { podRunningSeconds: 60, reachabilitySeconds: 180, reachabilityAttemptSeconds: 2, configJobSeconds: 60, namespaceDeleteSeconds: 60 },
        healthcheck: { probeTimeoutMs: 10_000, intervalMs: 500 },
      },
    });
    healthchecker = healthcheckerProcess({ ...p.config, ...p.nats.loginAs('healthchecker'), ops: { healthcheckerPort: 0, host: '127.0.0.1' } });
    await healthchecker.start();
  });
  afterEach(async () => {
    // Whatever a test did to it, the next one has one running.
    await healthchecker?.kill();
    await healthchecker?.start();
  });
  afterAll(async () => {
    await healthchecker?.kill();
    await p?.stop();
  });

  /** Starts a network-automation lab; `sampled` gets its recorded health every 20 ms until `stop()`. */
  const startLab = async () => {
    const lesson = await p.newLiveLesson('network-automation');
    await p.bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: lesson.id });
    const sampled: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const row = await p.data.liveLessons.find(lesson.id);
        if (row) sampled.push(row.healthyTests);
        await sleep(20);
      }
    })();
    return {
      id: lesson.id,
      sampled,
      health: async () => (await p.data.liveLessons.get(lesson.id)).healthyTests,
      stop: async () => {
        sampling = false;
        await sampler;
      },
    };
  };
  const ready = (id: string) =>
    expect.poll(
      async () => {
        const lesson = await p.data.liveLessons.find(id);
        return lesson?.error ? `failed: ${lesson.failureReason}` : lesson?.status;
      },
      { timeout: 150_000, interval: 100 },
    );
  /** Connections each endpoint's Service accepted once its device was ready. */
  const probedWhenReady = (id: string): Record<string, number> => {
    const services = p.sim.endpointReport(`antidote-it-${id}`).filter((endpoint) => endpoint.kind === 'Service');
    return Object.fromEntries(services.map((endpoint): [string, number] => [endpoint.name ?? '', endpoint.connections['22']?.ready?.count ?? 0]));
  };
  const switchesBooting = (id: string) =>
    p.sim.endpointReport(`antidote-it-${id}`).filter((endpoint) => endpoint.kind === 'Pod' && endpoint.name?.startsWith('vqfx') && endpoint.stage !== 'ready')
      .length;

  it('resumes from the recorded state when the healthchecker is killed mid-boot', async () => {
    const lab = await startLab();
    // The host is up (recorded on the row) while both switches are still booting: kill the healthchecker then.
    await expect.poll(lab.health, { timeout: 60_000, interval: 50 }).toBe(1);
    expect(switchesBooting(lab.id)).toBe(2);
    await healthchecker.kill();
    await healthchecker.start();
    await ready(lab.id).toBe(LiveLessonStatus.READY);
    await lab.stop();
    expect(neverDecreases(lab.sampled), lab.sampled.join(',')).toBe(true);
    expect(await lab.health()).toBe(3);
    // The new healthchecker never probed the host again: its one login was the killed one's.
    expect(probedWhenReady(lab.id)).toEqual({ linux1: 1, vqfx1: expect.any(Number) as number, vqfx2: expect.any(Number) as number });
    expect(Math.max(...Object.values(probedWhenReady(lab.id)))).toBeLessThanOrEqual(1);
  });

  it('neither hangs nor resets progress when nats-server restarts mid-boot', async () => {
    const lab = await startLab();
    await expect.poll(lab.health, { timeout: 60_000, interval: 50 }).toBe(1);
    expect(switchesBooting(lab.id)).toBe(2);
    // Down for a second: the reply of the attempt in flight is lost, as are progress events meanwhile.
    await p.nats.restart(1000);
    await ready(lab.id).toBe(LiveLessonStatus.READY);
    await lab.stop();
    expect(neverDecreases(lab.sampled), lab.sampled.join(',')).toBe(true);
    expect(await lab.health()).toBe(3);
    expect(Math.max(...Object.values(probedWhenReady(lab.id)))).toBeLessThanOrEqual(1);
  });
});
