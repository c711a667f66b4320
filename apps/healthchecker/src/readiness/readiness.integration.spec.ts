import type { HealthTarget, ReadinessCheck } from '@antidote/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { ProbeServers } from '../../test/probe-servers.js';
import { ProbeRunner } from '../probes/probe-runner.js';
import { waitUntilReachable } from '../reachability/wait-until-reachable.js';

/** Every probe and check gets a generous bound: the peers here always answer, so a slow machine only waits longer. */
const ANSWERED = 15_000;
const BOOTING = 'error: the system is still booting, please try again later\n';
const READY = 'Hostname: vqfx1\nModel: vqfx-10000\nJunos: 19.4R1.10\n';
const showVersion: ReadinessCheck = { type: 'ssh', command: 'show version', match: 'Model: \\S+' };

/** An SSH endpoint that answers "booting" to its first `bootingFor` commands, then its real output (or never, with Infinity). */
async function bootingEndpoint(servers: ProbeServers, bootingFor: number) {
  const commands: string[] = [];
  const port = await servers.sshCommands((command) => {
    commands.push(command);
    return commands.length <= bootingFor ? BOOTING : READY;
  });
  const target: HealthTarget = {
    name: 'vqfx1',
    host: '127.0.0.1',
    ports: [port],
    presentations: [{ name: 'cli', port, type: 'ssh' }],
    sshUser: 'antidote',
    sshPassword: 'antidotepassword',
    readiness: showVersion,
  };
  return { target, commands, port };
}

describe('readiness checks against real servers', () => {
  const servers = new ProbeServers();
  afterAll(() => servers.closeAll());
  const runner = new ProbeRunner({ probeTimeoutMs: ANSWERED, httpHealthyBelow: 500, maxConcurrentProbes: 4 });

  it('an endpoint that opens SSH but is not ready yet is reachable and not ready, then ready once its command output matches', async () => {
    const { target, commands, port } = await bootingEndpoint(servers, 2);
    for (let attempt = 1; attempt <= 2; attempt++) {
      const health = await runner.check(target);
      // The probe's login and the readiness command share one connection.
      expect(servers.connectionsTo(port)).toBe(attempt);
      expect(health.probes).toMatchObject([{ kind: 'ssh', verdict: 'reachable', reachable: true }]);
      expect(health.reachable).toBe(true);
      expect(health.readiness).toEqual({
        check: 'ssh "show version" =~ /Model: \\S+/',
        ready: false,
        detail: '"show version" output did not match /Model: \\S+/ yet: "error: the system is still booting, please try again later"',
      });
    }
    expect(await runner.check(target)).toMatchObject({ reachable: true, readiness: { ready: true, detail: '"show version" output matched /Model: \\S+/' } });
    expect(commands).toEqual(['show version', 'show version', 'show version']);
    expect(servers.connectionsTo(port)).toBe(3);
  });

  it('an SSH login refused is reachable (credentials-rejected) and not ready, on one connection', async () => {
    const { target, commands, port } = await bootingEndpoint(servers, 0);
    const health = await runner.check({ ...target, sshPassword: 'wrong' });
    expect(health).toMatchObject({ reachable: true, probes: [{ verdict: 'credentials-rejected', reachable: true }] });
    expect(health.readiness).toMatchObject({ ready: false, detail: expect.stringMatching(/^"show version" got no answer yet: .+/) });
    expect(commands).toEqual([]);
    expect(servers.connectionsTo(port)).toBe(1);
  });

  it('an endpoint another probe of which fails is not reachable, its command output set aside: readiness not checked', async () => {
    const { target, commands } = await bootingEndpoint(servers, 0);
    const closed = await servers.closedPort();
    const health = await runner.check({
      ...target,
      ports: [...target.ports, closed],
      presentations: [...target.presentations, { name: 'web', port: closed, type: 'http' }],
    });
    expect(health).toMatchObject({
      reachable: false,
      probes: [
        { kind: 'ssh', verdict: 'reachable' },
        { kind: 'http', verdict: 'refused' },
      ],
    });
    expect(health.readiness).toEqual({ check: 'ssh "show version" =~ /Model: \\S+/', ready: false, detail: 'not checked: not reachable yet' });
    // The command ran on the probe's connection, but its (ready) answer does not count.
    expect(commands).toEqual(['show version']);
  });

  it('a command that never ends is given up on abort, on a connection closed with the check', async () => {
    const commands: string[] = [];
    const port = await servers.sshCommands((command) => (commands.push(command), null));
    const { target } = await bootingEndpoint(servers, 0);
    const stop = new AbortController();
    const checking = runner.check({ ...target, ports: [port], presentations: [{ name: 'cli', port, type: 'ssh' }] }, { signal: stop.signal });
    await expect.poll(() => commands.length).toBe(1);
    stop.abort(new Error('deadline'));
    const health = await checking;
    expect(health).toMatchObject({ reachable: true, probes: [{ verdict: 'reachable' }] });
    expect(health.readiness).toMatchObject({ ready: false, detail: `"show version" got no answer yet: no answer to "show version" within ${ANSWERED} ms` });
    await expect.poll(() => servers.open).toBe(0);
  });

  it('an SSH readiness check on a port with no SSH probe opens its own connection, as before', async () => {
    const { target, commands, port: checked } = await bootingEndpoint(servers, 0);
    const probed = await servers.ssh();
    const health = await runner.check({
      ...target,
      ports: [probed, checked],
      presentations: [{ name: 'cli', port: probed, type: 'ssh' }],
      readiness: { ...showVersion, port: checked },
    });
    expect(health).toMatchObject({ reachable: true, readiness: { ready: true } });
    expect(commands).toEqual(['show version']);
    expect([servers.connectionsTo(probed), servers.connectionsTo(checked)]).toEqual([1, 1]);
  });

  it('waiting goes on past reachable until the endpoint is ready (ready after N attempts)', async () => {
    const { target, commands } = await bootingEndpoint(servers, 3);
    const progress: number[] = [];
    const reply = await waitUntilReachable(runner, [target], {
      deadlineMs: 600_000,
      intervalMs: 10,
      onProgress: (_name, healthy) => void progress.push(healthy),
    });
    expect(reply).toMatchObject({ reachable: true, healthy: 1, total: 1 });
    expect(reply.endpoints[0].readiness?.ready).toBe(true);
    // Counted healthy once, when ready: not when the port first answered.
    expect(progress).toEqual([1]);
    expect(commands).toHaveLength(4);
  });

  it('an endpoint that never becomes ready ends the wait not reachable, with what its check saw last', async () => {
    const { target, commands } = await bootingEndpoint(servers, Infinity);
    const stop = new AbortController();
    const waiting = waitUntilReachable(runner, [target], { deadlineMs: 600_000, intervalMs: 10, signal: stop.signal });
    // The deadline, as a condition: once the check has said "not ready" a few times, time is up.
    await expect.poll(() => commands.length).toBeGreaterThanOrEqual(3);
    stop.abort(new Error('deadline'));
    const reply = await waiting;
    expect(reply).toMatchObject({ reachable: false, healthy: 0, total: 1 });
    expect(reply.endpoints[0]).toMatchObject({
      reachable: true,
      readiness: { ready: false, detail: expect.stringContaining('did not match /Model: \\S+/ yet') },
    });
  });

  it('an endpoint without a readiness check is up when reachable, and its result has no readiness (as before)', async () => {
    const { target, commands } = await bootingEndpoint(servers, Infinity);
    const { readiness: _none, ...plain } = target;
    const health = await runner.check(plain);
    expect(health.reachable).toBe(true);
    expect(health).not.toHaveProperty('readiness');
    expect(commands).toEqual([]);
  });

  it('checks a TCP banner and an HTTP status the same way', async () => {
    let ready = false;
    const bannerPort = await servers.bannerLine(() => (ready ? 'vqfx1 ready' : 'vqfx1 booting'));
    const tcp: HealthTarget = { name: 'r1', host: '127.0.0.1', ports: [bannerPort], presentations: [], readiness: { type: 'tcp', match: ' ready$' } };
    expect(await runner.check(tcp)).toMatchObject({
      reachable: true,
      readiness: { ready: false, detail: 'banner did not match / ready$/ yet: "vqfx1 booting"' },
    });
    ready = true;
    expect(await runner.check(tcp)).toMatchObject({ reachable: true, readiness: { ready: true } });

    const web = await servers.http(503);
    const http: HealthTarget = { name: 'web1', host: '127.0.0.1', ports: [web], presentations: [], readiness: { type: 'http', path: '/healthz', port: web } };
    expect(await runner.check(http)).toMatchObject({ reachable: true, readiness: { ready: false, detail: 'GET /healthz answered 503, not 200 yet' } });
  });

  it('runs a readiness check only once the port answers, through the same concurrency limit as the probes', async () => {
    const closed = await servers.closedPort();
    const down: HealthTarget = {
      name: 'vqfx9',
      host: '127.0.0.1',
      ports: [closed],
      presentations: [{ name: 'cli', port: closed, type: 'ssh' }],
      readiness: showVersion,
    };
    expect(await runner.check(down)).toMatchObject({ reachable: false, readiness: { ready: false, detail: 'not checked: not reachable yet' } });
    const one = new ProbeRunner({ probeTimeoutMs: ANSWERED, httpHealthyBelow: 500, maxConcurrentProbes: 1 });
    const endpoints = await Promise.all([1, 2, 3].map(async () => (await bootingEndpoint(servers, 0)).target));
    const results = await Promise.all(endpoints.map((endpoint) => one.check(endpoint)));
    expect(results.map((r) => r.readiness?.ready)).toEqual([true, true, true]);
    expect(one.limiter.peak).toBe(1);
  });
});
