import type { ReadinessCheck } from '@antidote/contracts';
import { describe, expect, it } from 'vitest';
import type { FetchOutcome, FetchTarget, ReadinessFetchers } from './readiness-fetch.js';
import { describeCheck, evaluateReadiness } from './readiness-evaluator.js';
import { safeMatch } from './safe-match.js';

/** Fetchers that answer `outcome` and record what they were asked. */
function fakeFetchers(outcome: FetchOutcome) {
  const asked: { how: string; target: FetchTarget; what?: string; user?: string }[] = [];
  const fetchers: ReadinessFetchers = {
    sshCommand: (target, command, credentials) => (asked.push({ how: 'ssh', target, what: command, user: credentials.username }), Promise.resolve(outcome)),
    httpStatus: (target, path) => (asked.push({ how: 'http', target, what: path }), Promise.resolve(outcome)),
    tcpBanner: (target) => (asked.push({ how: 'tcp', target }), Promise.resolve(outcome)),
  };
  return { fetchers, asked };
}

const endpoint = {
  host: '127.20.0.2',
  ports: [22, 8080, 830],
  presentations: [
    { name: 'cli', port: 830, type: 'ssh' as const },
    { name: 'web', port: 8080, type: 'http' as const },
  ],
  sshUser: 'antidote',
  sshPassword: 'pw',
};
const ssh: ReadinessCheck = { type: 'ssh', command: 'show version', match: 'Model: \\S+' };
const http: ReadinessCheck = { type: 'http', path: '/healthz' };
const tcp: ReadinessCheck = { type: 'tcp', match: '^SSH-2\\.0-' };

describe('evaluateReadiness', () => {
  it.each([
    ['ssh: output matches', ssh, { ok: true, text: 'Hostname: vqfx1\nModel: vqfx-10000\n' }, true, '"show version" output matched /Model: \\S+/'],
    [
      'ssh: output does not match yet',
      ssh,
      { ok: true, text: 'error: the system is still booting\n' },
      false,
      '"show version" output did not match /Model: \\S+/ yet: "error: the system is still booting"',
    ],
    ['ssh: no answer', ssh, { ok: false, error: 'connect ECONNREFUSED' }, false, '"show version" got no answer yet: connect ECONNREFUSED'],
    ['http: expected status (200 by default)', http, { ok: true, status: 200 }, true, 'GET /healthz answered 200'],
    ['http: another status', http, { ok: true, status: 503 }, false, 'GET /healthz answered 503, not 200 yet'],
    ['http: a declared status', { ...http, status: 204 }, { ok: true, status: 200 }, false, 'GET /healthz answered 200, not 204 yet'],
    ['tcp: banner matches', tcp, { ok: true, text: 'SSH-2.0-OpenSSH_9.2' }, true, 'banner matched /^SSH-2\\.0-/'],
    ['tcp: banner does not match', tcp, { ok: true, text: 'vqfx1 booting' }, false, 'banner did not match /^SSH-2\\.0-/ yet: "vqfx1 booting"'],
  ] as const)('%s', async (_case, check, outcome, ready, detail) => {
    const { fetchers } = fakeFetchers(outcome);
    expect(await evaluateReadiness(check, endpoint, { timeoutMs: 1000 }, fetchers)).toEqual({ check: describeCheck(check), ready, detail });
  });

  it.each([
    ['ssh on the first ssh presentation, with the image login', ssh, { how: 'ssh', port: 830, what: 'show version', user: 'antidote' }],
    ['ssh on its own port', { ...ssh, port: 2222 }, { how: 'ssh', port: 2222 }],
    ['http on the first http presentation', http, { how: 'http', port: 8080, what: '/healthz' }],
    ['tcp on the first port', tcp, { how: 'tcp', port: 22 }],
  ] as const)('asks %s', async (_case, check, expected) => {
    const { fetchers, asked } = fakeFetchers({ ok: true, text: '', status: 200 });
    await evaluateReadiness(check, endpoint, { timeoutMs: 1234 }, fetchers);
    const { how, target, what, user } = asked[0];
    expect({ how, port: target.port, what, user }).toMatchObject(expected);
    expect(target).toMatchObject({ host: '127.20.0.2', timeoutMs: 1234 });
  });

  it('ssh without an ssh presentation asks on 22; http without an http presentation asks nothing and says why', async () => {
    const { fetchers, asked } = fakeFetchers({ ok: true, text: 'Model: x' });
    const bare = { host: '127.0.0.1', ports: [], presentations: [] };
    expect((await evaluateReadiness(ssh, bare, { timeoutMs: 1000 }, fetchers)).ready).toBe(true);
    expect(asked[0].target.port).toBe(22);
    expect(await evaluateReadiness(http, bare, { timeoutMs: 1000 }, fetchers)).toMatchObject({
      ready: false,
      detail: 'no port to check: give readiness.port or an http presentation',
    });
    expect(asked).toHaveLength(1);
  });

  it('shortens a long answer in the detail', async () => {
    const { fetchers } = fakeFetchers({ ok: true, text: 'x'.repeat(5000) });
    const { detail } = await evaluateReadiness({ type: 'ssh', command: 'uptime', match: 'up' }, endpoint, { timeoutMs: 1000 }, fetchers);
    expect(detail.length).toBeLessThan(300);
    expect(detail).toMatch(/…"$/);
  });
});

describe('safeMatch', () => {
  it.each([
    ['a match', 'Model: \\S+', 'Model: vqfx', 'matched'],
    ['no match', 'Model: \\S+', 'booting', 'no-match'],
    ['an invalid pattern', '(', 'x', 'invalid'],
    // Beyond the input limit (8192 characters) nothing is looked at.
    ['text past the input limit', 'READY', `${'.'.repeat(9000)}READY`, 'no-match'],
    // Nested quantifiers, exponential for a backtracking engine: the linear-time engine answers at once.
    ['a pattern that would backtrack catastrophically', '^(a+)+$', `${'a'.repeat(64)}!`, 'no-match'],
    ['the same pattern on text it matches', '^(a+)+$', 'a'.repeat(64), 'matched'],
    ['a back-referencing pattern that matches', '^(ab)\\1$', 'abab', 'matched'],
  ] as const)('%s', async (_case, pattern, input, expected) => {
    expect(await safeMatch(pattern, input)).toBe(expected);
  });

  it('runs a pattern the linear-time engine can run in linear time on 8192 characters', async () => {
    // A backtracking engine would need longer than the universe has existed; the limit is only an upper bound.
    expect(await safeMatch('^(a|aa)+$', `${'a'.repeat(8000)}!`, 60_000)).toBe('no-match');
  });

  it('ends a back-referencing pattern that backtracks catastrophically at its time limit', async () => {
    expect(await safeMatch('^(a+)+\\1$', `${'a'.repeat(64)}!`, 200)).toBe('too-slow');
  });
});
