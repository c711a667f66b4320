import { readdirSync } from 'node:fs';
import type { HealthTarget } from '@antidote/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProbeServers } from '../../test/probe-servers.js';
import { waitUntilReachable } from '../reachability/wait-until-reachable.js';
import { ProbeRunner } from './probe-runner.js';

const openDescriptors = (): number => readdirSync('/proc/self/fd').length;
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 200));
/** For probes whose peer answers (a login, a refusal): generous, so a loaded machine still gets the answer. */
const ANSWERED = 15_000;

describe('ProbeRunner', () => {
  const servers = new ProbeServers();
  let ssh: number;
  let http: number;
  let silent: number;
  let closed: number;
  beforeAll(async () => {
    ssh = await servers.ssh();
    http = await servers.http(200);
    silent = await servers.silent();
    closed = await servers.closedPort();
  });
  afterAll(() => servers.closeAll());

  const endpoint = (name: string, overrides: Partial<HealthTarget> = {}): HealthTarget => ({
    name,
    host: '127.0.0.1',
    ports: [ssh, http],
    presentations: [
      { name: 'cli', port: ssh, type: 'ssh' },
      { name: 'web', port: http, type: 'http' },
    ],
    sshUser: 'antidote',
    sshPassword: 'antidotepassword',
    ...overrides,
  });

  it('probes every presentation, and the first port of an endpoint without presentations', async () => {
    const runner = new ProbeRunner({ probeTimeoutMs: ANSWERED, httpHealthyBelow: 500, maxConcurrentProbes: 10 });
    const both = await runner.check(endpoint('vqfx1'));
    expect(both.reachable).toBe(true);
    expect(both.probes.map((p) => [p.target, p.kind, p.verdict])).toEqual([
      ['cli', 'ssh', 'reachable'],
      ['web', 'http', 'reachable'],
    ]);
    const bare = await runner.check(endpoint('linux', { presentations: [], ports: [silent, closed] }));
    expect(bare.probes).toEqual([expect.objectContaining({ target: `port-${silent}`, kind: 'tcp', verdict: 'reachable' })]);
    const none = await runner.check(endpoint('nothing', { presentations: [], ports: [] }));
    expect(none).toMatchObject({ reachable: false, error: 'Endpoint has no Ports' });
    const half = await runner.check(
      endpoint('half', {
        presentations: [
          { name: 'cli', port: closed, type: 'ssh' },
          { name: 'web', port: http, type: 'http' },
        ],
      }),
    );
    expect(half.reachable).toBe(false);
  });

  it('never has more probe sockets open than the limit, and returns every descriptor after 1,000 probes', async () => {
    // Every probe here is answered (logins, refusals), so the outcome is the same at any machine speed.
    const runner = new ProbeRunner({ probeTimeoutMs: ANSWERED, httpHealthyBelow: 500, maxConcurrentProbes: 25 });
    await runner.check(endpoint('warm-up'));
    await settle();
    const baseline = openDescriptors();
    const targets = Array.from({ length: 500 }, (_, i) =>
      endpoint(
        `e${i}`,
        i % 5 === 0
          ? {
              presentations: [
                { name: 'cli', port: closed, type: 'ssh' },
                { name: 'web', port: closed, type: 'http' },
              ],
            }
          : {},
      ),
    );
    const results = await Promise.all(targets.map((target) => runner.check(target)));
    expect(results.flatMap((r) => r.probes)).toHaveLength(1000);
    expect(results.filter((r) => r.reachable)).toHaveLength(400);
    // A probe's socket lives inside its limiter slot (destroyed before the slot is released), so the
    // slots in use bound the open probe sockets. (The servers' own count lags: their 'close' events
    // arrive after the next probes have connected.)
    expect(runner.limiter.peak).toBe(25);
    // Closed handles are released on later event-loop turns (the servers' ends too): wait for it; a leak never gets there.
    await vi.waitFor(() => expect(openDescriptors()).toBeLessThanOrEqual(baseline + 2), { timeout: 60_000, interval: 100 });
  }, 180_000);

  it('waits until every endpoint is reachable, reporting progress, and gives up at the deadline', async () => {
    const runner = new ProbeRunner({ probeTimeoutMs: ANSWERED, httpHealthyBelow: 500, maxConcurrentProbes: 10 });
    const progress: string[] = [];
    const late = new ProbeServers();
    const latePort = await late.closedPort();
    // The late endpoint starts listening only once the first one was reported: an order that holds at any speed.
    const reply = await waitUntilReachable(runner, [endpoint('now'), endpoint('later', { presentations: [{ name: 'web', port: latePort, type: 'http' }] })], {
      deadlineMs: 120_000,
      intervalMs: 100,
      onProgress: (name, healthy, total) => {
        progress.push(`${name} ${healthy}/${total}`);
        if (name === 'now') void late.httpOn(latePort);
      },
    });
    expect(reply).toMatchObject({ reachable: true, healthy: 2, total: 2 });
    expect(progress).toEqual(['now 1/2', 'later 2/2']);
    await late.closeAll();

    const timedOut = await waitUntilReachable(runner, [endpoint('never', { presentations: [{ name: 'cli', port: closed, type: 'ssh' }] })], {
      deadlineMs: 600,
      intervalMs: 100,
    });
    expect(timedOut).toMatchObject({ reachable: false, healthy: 0, total: 1 });
    expect(timedOut.endpoints[0]?.probes[0]?.verdict).toBe('refused');
  });
});
