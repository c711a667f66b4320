import type { HealthTarget } from '@antidote/contracts';
import { afterAll, expect, it } from 'vitest';
import { ProbeServers } from '../../test/probe-servers.js';
import { ProbeRunner } from './probe-runner.js';

const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 1000);

/** 1,000 endpoints (an SSH login and an HTTP GET each) through the global limit: probes/s and peak RSS. */
const servers = new ProbeServers();
afterAll(() => servers.closeAll());

it(`probes ${ENDPOINTS} endpoints and prints the figures`, async () => {
  const ssh = await servers.ssh();
  const http = await servers.http(200);
  const endpoints: HealthTarget[] = Array.from({ length: ENDPOINTS }, (_, i) => ({
    name: `ep${i}`,
    host: '127.0.0.1',
    ports: [ssh, http],
    presentations: [
      { name: 'cli', port: ssh, type: 'ssh' },
      { name: 'web', port: http, type: 'http' },
    ],
    sshUser: 'antidote',
    sshPassword: 'antidotepassword',
  }));
  for (const limit of [50, 200]) {
    const runner = new ProbeRunner({ probeTimeoutMs: 10_000, httpHealthyBelow: 500, maxConcurrentProbes: limit });
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    const results = await Promise.all(endpoints.map((endpoint) => runner.check(endpoint)));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const probes = ENDPOINTS * 2;
    const reachable = results.filter((r) => r.reachable).length;
    console.log(
      `bench healthchecker: ${ENDPOINTS} endpoints (${probes} probes: ssh login + http) at most ${limit} open: ${seconds.toFixed(1)} s, ` +
        `${(probes / seconds).toFixed(0)} probes/s, ${reachable}/${ENDPOINTS} reachable, peak RSS ${(peak / 1024 / 1024).toFixed(0)} MiB`,
    );
    expect(reachable).toBe(ENDPOINTS);
  }
});

const READINESS_ENDPOINTS = Number(process.env.BENCH_READINESS_ENDPOINTS ?? 300);

/**
 * Endpoints with an SSH presentation and an SSH readiness check (`show version`): CPU per check round
 * (this process holds both ends, so client and server handshakes count) and SSH connections per round.
 */
it(`checks ${READINESS_ENDPOINTS} endpoints with an SSH readiness check and prints the CPU per round`, async () => {
  const ssh = await servers.sshCommands(() => 'Model: vqfx-10000\n');
  const endpoints: HealthTarget[] = Array.from({ length: READINESS_ENDPOINTS }, (_, i) => ({
    name: `vqfx${i}`,
    host: '127.0.0.1',
    ports: [ssh],
    presentations: [{ name: 'cli', port: ssh, type: 'ssh' }],
    sshUser: 'antidote',
    sshPassword: 'antidotepassword',
    readiness: { type: 'ssh', command: 'show version', match: 'Model: \\S+' },
  }));
  const runner = new ProbeRunner({ probeTimeoutMs: 10_000, httpHealthyBelow: 500, maxConcurrentProbes: 50 });
  await runner.check(endpoints[0]); // loads ssh2 and warms up before measuring
  const connectionsBefore = servers.connectionsTo(ssh);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const results = await Promise.all(endpoints.map((endpoint) => runner.check(endpoint)));
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  const ready = results.filter((r) => r.readiness?.ready).length;
  const connections = (servers.connectionsTo(ssh) - connectionsBefore) / READINESS_ENDPOINTS;
  console.log(
    `bench healthchecker readiness: ${READINESS_ENDPOINTS} endpoints (ssh login + ssh readiness "show version") at most 50 open: ${seconds.toFixed(1)} s, ` +
      `${((user + system) / 1000 / READINESS_ENDPOINTS).toFixed(2)} ms CPU per check round (both ends), ${connections} SSH connection(s) per round, ${ready}/${READINESS_ENDPOINTS} ready`,
  );
  expect(ready).toBe(READINESS_ENDPOINTS);
});
