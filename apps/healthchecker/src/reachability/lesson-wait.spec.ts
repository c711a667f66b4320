import { getEventListeners } from 'node:events';
import type { EndpointHealth, HealthTarget } from '@antidote/contracts';
import { describe, expect, it } from 'vitest';
import { LessonWait, type LessonWaitOptions } from './lesson-wait.js';
import { MAX_PROBE_TIMEOUT_FACTOR, type ReachabilityProbe } from './probe-backoff.js';

const HOUR = 3_600_000;
const target = (name: string): HealthTarget => ({ name, host: '127.0.0.1', ports: [22], presentations: [] });
const health = (name: string, reachable: boolean): EndpointHealth => ({
  name,
  host: '127.0.0.1',
  reachable,
  latencyMs: 1,
  probes: [{ target: 'port-22', kind: 'tcp', port: 22, verdict: reachable ? 'reachable' : 'refused', reachable, latencyMs: 1 }],
});

/** Endpoints that are up once named in `up` (or given a probe of at least `needsMs`); every probe is recorded. */
function devices(needsMs = 0) {
  const up = new Set<string>();
  const probes: { name: string; timeoutMs: number }[] = [];
  const runner: ReachabilityProbe = {
    timeoutMs: 2000,
    check: (endpoint, options = {}) => {
      const timeoutMs = options.timeoutMs ?? 2000;
      probes.push({ name: endpoint.name, timeoutMs });
      return Promise.resolve(health(endpoint.name, up.has(endpoint.name) && timeoutMs >= needsMs));
    },
  };
  const probesOf = (name: string) => probes.filter((probe) => probe.name === name);
  return { up, runner, probesOf };
}

function waitFor(runner: ReachabilityProbe, names: string[], alreadyUp: string[] = [], options: Partial<LessonWaitOptions> = {}) {
  const shutdown = new AbortController();
  const recorded: string[] = [];
  const wait = new LessonWait(runner, names.map(target), new Set(alreadyUp), {
    keepUntil: Date.now() + HOUR,
    intervalMs: 0,
    signal: shutdown.signal,
    onUp: (name) => (recorded.push(name), Promise.resolve()),
    ...options,
  });
  return { wait, recorded, shutdown };
}

describe('LessonWait', () => {
  it('gives a slow endpoint longer probes round after round until one is long enough, and no probe once it is up', async () => {
    const { up, runner, probesOf } = devices(9000);
    up.add('vqfx1');
    const { wait } = waitFor(runner, ['vqfx1']);
    expect(await wait.reply(HOUR)).toMatchObject({ reachable: true, healthy: 1, total: 1 });
    expect(probesOf('vqfx1').map((probe) => probe.timeoutMs)).toEqual([2000, 4000, 8000, 16_000]);
  });

  it('never gives a probe more than the cap', async () => {
    const { runner, probesOf } = devices();
    const { wait, shutdown } = waitFor(runner, ['vqfx1']);
    await expect.poll(() => probesOf('vqfx1').length).toBeGreaterThan(8);
    shutdown.abort();
    expect((await wait.reply(HOUR)).reachable).toBe(false);
    expect(Math.max(...probesOf('vqfx1').map((probe) => probe.timeoutMs))).toBe(2000 * MAX_PROBE_TIMEOUT_FACTOR);
  });

  it('keeps one wait across requests: each reply is the state so far, an endpoint up is never probed again, the back-off goes on', async () => {
    const { up, runner, probesOf } = devices();
    up.add('linux1');
    const { wait, recorded, shutdown } = waitFor(runner, ['vqfx1', 'linux1']);
    await expect.poll(() => recorded).toEqual(['linux1']);
    const first = await wait.reply(1);
    expect(first).toMatchObject({ reachable: false, healthy: 1, total: 2 });
    expect(first.endpoints.map((endpoint) => [endpoint.name, endpoint.reachable])).toEqual([
      ['vqfx1', false],
      ['linux1', true],
    ]);
    const probedBefore = probesOf('vqfx1').length;
    await expect.poll(() => probesOf('vqfx1').length).toBeGreaterThan(probedBefore + 2);
    expect((await wait.reply(1)).healthy).toBe(1);
    // The probe bound kept growing from where it was, not from the configured one again.
    const bounds = probesOf('vqfx1').map((probe) => probe.timeoutMs);
    expect(bounds.slice(0, 4)).toEqual([2000, 4000, 8000, 16_000]);
    expect(bounds.slice(4).every((ms) => ms === 2000 * MAX_PROBE_TIMEOUT_FACTOR)).toBe(true);
    up.add('vqfx1');
    expect(await wait.reply(HOUR)).toMatchObject({ reachable: true, healthy: 2 });
    expect(probesOf('linux1')).toHaveLength(1);
    expect(recorded).toEqual(['linux1', 'vqfx1']);
    shutdown.abort();
  });

  it('resumes from the endpoints recorded up: they are not probed, and count as up (ready where they have a readiness check)', async () => {
    const { up, runner, probesOf } = devices();
    const names = ['vqfx1', 'vqfx2', 'linux1'];
    const { wait } = waitFor(runner, names, ['vqfx1', 'linux1']);
    const first = await wait.reply(1);
    expect(first).toMatchObject({ reachable: false, healthy: 2, total: 3 });
    up.add('vqfx2');
    expect(await wait.reply(HOUR)).toMatchObject({ reachable: true, healthy: 3 });
    expect(probesOf('vqfx1')).toEqual([]);
    expect(probesOf('linux1')).toEqual([]);
    const ready = new LessonWait(runner, [{ ...target('vqfx1'), readiness: { type: 'ssh', command: 'show version', match: 'Model' } }], new Set(['vqfx1']), {
      keepUntil: 0,
      intervalMs: 0,
      signal: new AbortController().signal,
      onUp: () => Promise.resolve(),
    });
    expect((await ready.reply(HOUR)).endpoints[0]).toMatchObject({ reachable: true, readiness: { ready: true } });
  });

  it('stops probing once nobody asks (its keep-until passed): a later request needs a new wait', async () => {
    const { runner, probesOf } = devices();
    const { wait } = waitFor(runner, ['vqfx1'], [], { keepUntil: Date.now() + 50 });
    await wait.finished;
    expect(wait.stopped).toBe(true);
    const probed = probesOf('vqfx1').length;
    expect((await wait.reply(HOUR)).reachable).toBe(false);
    expect(probesOf('vqfx1')).toHaveLength(probed);
  });

  it("many lessons' waits share the shutdown signal through one listener, leave none once they end, and set off no listener warning", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): number => warnings.push(warning);
    process.on('warning', onWarning);
    // Probes that answer once released, each listening meanwhile to the signal it is given (as a real one under its deadline does).
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const probing: ReachabilityProbe = {
      timeoutMs: 2000,
      check: async (endpoint, options = {}) => {
        const stop = (): void => undefined;
        options.signal?.addEventListener('abort', stop);
        await released;
        options.signal?.removeEventListener('abort', stop);
        return health(endpoint.name, true);
      },
    };
    const shutdown = new AbortController();
    const names = Array.from({ length: 12 }, (_, i) => `host${i}`);
    const waits = Array.from({ length: 20 }, () => waitFor(probing, names, [], { signal: shutdown.signal }).wait);
    const replies = waits.map((wait) => wait.reply(HOUR));
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(1);
    release();
    expect((await Promise.all(replies)).map((reply) => reply.healthy)).toEqual(Array(20).fill(12));
    await Promise.all(waits.map((wait) => wait.finished));
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
    // Node emits its warnings on the next tick: after those already queued, this one comes.
    await new Promise((resolve) => process.nextTick(resolve));
    process.off('warning', onWarning);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning').map(String)).toEqual([]);
  });
});
