import type { EndpointHealth, ProbeResult, ReadinessResult } from '@antidote/contracts';
import { describe, expect, it } from 'vitest';
import { allUp, unreachableReason } from './unreachable-reason.js';

const probe = (overrides: Partial<ProbeResult>): ProbeResult => ({
  target: 'cli',
  kind: 'ssh',
  port: 22,
  verdict: 'reachable',
  reachable: true,
  latencyMs: 3,
  ...overrides,
});
const endpoint = (name: string, probes: ProbeResult[], error?: string): EndpointHealth => ({
  name,
  host: '127.20.0.2',
  reachable: !error && probes.every((p) => p.reachable),
  latencyMs: 3,
  probes,
  ...(error ? { error } : {}),
});

describe('unreachableReason', () => {
  it('names the one unreachable endpoint, the deadline and what its failing probe saw', () => {
    const reason = unreachableReason(
      [endpoint('vqfx1', [probe({})]), endpoint('vqfx2', [probe({ verdict: 'refused', reachable: false, error: 'connect ECONNREFUSED 127.20.0.2:22' })])],
      3,
    );
    expect(reason).toBe('vqfx2 did not become reachable within 3 s — vqfx2: cli (ssh to 127.20.0.2:22) refused the connection');
  });

  it('lists several endpoints, keeps timeout details and endpoint-level errors, skips probes that passed', () => {
    const reason = unreachableReason(
      [
        endpoint('linux1', [probe({}), probe({ target: 'web', kind: 'http', port: 8080, verdict: 'bad-response', reachable: false, httpStatus: 503 })]),
        endpoint('vqfx1', [probe({ verdict: 'timeout', reachable: false, error: 'no SSH banner within 1000 ms' })]),
        endpoint('vqfx3', [], 'not probed before the deadline'),
      ],
      600,
    );
    expect(reason).toBe(
      'linux1, vqfx1 and vqfx3 did not become reachable within 600 s — linux1: web (http to 127.20.0.2:8080) gave an unexpected answer HTTP 503; ' +
        'vqfx1: cli (ssh to 127.20.0.2:22) did not answer in time (no SSH banner within 1000 ms); vqfx3: not probed before the deadline',
    );
  });

  const notReady: ReadinessResult = {
    check: 'ssh "show version" =~ /Model/',
    ready: false,
    detail: '"show version" output did not match /Model/ yet: "booting"',
  };

  it('says an endpoint that answers but is not ready yet did not become ready, with what its readiness check saw', () => {
    const reason = unreachableReason([{ ...endpoint('vqfx1', [probe({})]), readiness: notReady }, endpoint('linux1', [probe({})])], 20);
    expect(reason).toBe(
      'vqfx1 did not become ready within 20 s — vqfx1: reachable, not ready — ready check "show version" output did not match /Model/ yet: "booting"',
    );
  });

  it('names both kinds when one endpoint is unreachable and another not ready', () => {
    const reason = unreachableReason(
      [{ ...endpoint('vqfx1', [probe({})]), readiness: notReady }, endpoint('vqfx2', [probe({ verdict: 'refused', reachable: false })])],
      20,
    );
    expect(reason).toMatch(
      /^vqfx1 and vqfx2 did not become reachable and ready within 20 s — vqfx1: reachable, not ready — ready check .*; vqfx2: cli \(ssh to 127\.20\.0\.2:22\) refused the connection$/,
    );
  });

  it.each([
    ['all reachable, no readiness checks', true, [endpoint('a', [probe({})])], true],
    ['reachable, readiness passed', true, [{ ...endpoint('a', [probe({})]), readiness: { ...notReady, ready: true } }], true],
    ['reachable, not ready (whatever the reply says)', true, [{ ...endpoint('a', [probe({})]), readiness: notReady }], false],
    ['the reply says not reachable', false, [endpoint('a', [probe({})])], false],
  ] as const)('allUp: %s', (_case, reachable, endpoints, expected) => {
    expect(allUp({ reachable, endpoints: [...endpoints] })).toBe(expected);
  });
});
