import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeServers } from '../../test/probe-servers.js';
import { httpProbe } from './http.probe.js';
import { sshProbe } from './ssh.probe.js';
import { tcpProbe } from './tcp.probe.js';

/** For outcomes that need the peer to answer: generous, so a loaded machine still gets its answer in time. */
const ANSWERED = 15_000;
/** For outcomes that are a timeout: the peer never answers, so the verdict is the same at any speed. */
const TIMEOUT = 300;
const host = '127.0.0.1';

describe('probes against real servers', () => {
  const servers = new ProbeServers();
  const ports: Record<string, number> = {};
  beforeAll(async () => {
    ports.ssh = await servers.ssh();
    ports.banner = await servers.bannerThenSilence();
    ports.silent = await servers.silent();
    ports.closed = await servers.closedPort();
    ports.http200 = await servers.http(200);
    ports.http404 = await servers.http(404);
    ports.http503 = await servers.http(503);
  });
  afterAll(() => servers.closeAll());

  const within = async <T extends { latencyMs: number }>(probe: Promise<T>): Promise<T> => {
    const startedAt = Date.now();
    const outcome = await probe;
    // Ends (bounded by its timeout), never hanging: a loose bound, far below the test's own timeout.
    expect(Date.now() - startedAt).toBeLessThan(ANSWERED + 15_000);
    return outcome;
  };

  it.each([
    ['right credentials', 'antidote', 'antidotepassword', 'reachable', true],
    ['wrong credentials', 'antidote', 'nope', 'credentials-rejected', true],
  ] as const)('ssh with %s', async (_case, username, password, verdict, reachable) => {
    const outcome = await within(sshProbe({ host, port: ports.ssh, timeoutMs: ANSWERED }, { username, password }));
    expect(outcome).toMatchObject({ verdict, reachable });
  });

  it.each([
    ['banner then silence', 'banner', 'timeout', TIMEOUT],
    ['accept and silence', 'silent', 'timeout', TIMEOUT],
    ['closed port', 'closed', 'refused', ANSWERED],
    ['an HTTP server', 'http200', 'bad-response', ANSWERED],
  ] as const)('ssh against %s', async (_case, port, verdict, timeoutMs) => {
    const outcome = await within(sshProbe({ host, port: ports[port], timeoutMs }, { username: 'a', password: 'b' }));
    expect(outcome).toMatchObject({ verdict, reachable: false });
  });

  it.each([
    ['200', 'http200', 'reachable', true, 200],
    ['404', 'http404', 'reachable', true, 404],
    ['503', 'http503', 'bad-response', false, 503],
  ] as const)('http answering %s', async (_case, port, verdict, reachable, httpStatus) => {
    expect(await within(httpProbe({ host, port: ports[port], timeoutMs: ANSWERED }))).toMatchObject({ verdict, reachable, httpStatus });
  });

  it('http against a server that never answers, and a closed port', async () => {
    expect(await within(httpProbe({ host, port: ports.silent, timeoutMs: TIMEOUT }))).toMatchObject({ verdict: 'timeout', reachable: false });
    expect(await within(httpProbe({ host, port: ports.closed, timeoutMs: ANSWERED }))).toMatchObject({ verdict: 'refused', reachable: false });
  });

  it('a configurable healthy threshold for http', async () => {
    expect(await httpProbe({ host, port: ports.http404, timeoutMs: ANSWERED }, 400)).toMatchObject({ verdict: 'bad-response', httpStatus: 404 });
  });

  it.each([
    ['open', 'http200', 'reachable', true],
    ['accept and silence', 'silent', 'reachable', true],
    ['closed', 'closed', 'refused', false],
  ] as const)('tcp %s', async (_case, port, verdict, reachable) => {
    expect(await within(tcpProbe({ host, port: ports[port], timeoutMs: ANSWERED }))).toMatchObject({ verdict, reachable });
  });

  it('tcp to an address nothing answers on times out within its bound', async () => {
    // 192.0.2.0/24 is TEST-NET-1: never routed, so the SYN goes unanswered or is rejected at once.
    const outcome = await within(tcpProbe({ host: '192.0.2.1', port: 22, timeoutMs: TIMEOUT }));
    expect(outcome.reachable).toBe(false);
  });

  it('an aborted probe ends at once and closes its socket', async () => {
    const controller = new AbortController();
    // The peer never answers and the probe's own timeout is longer than the test's: only the abort can end it.
    const probe = sshProbe({ host, port: ports.silent, timeoutMs: 10 * 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await probe).reachable).toBe(false);
  });
});
