import { describe, expect, it } from 'vitest';
import { KubeApiError, toKubeApiError } from './kube-api.error.js';
import { KubeCallRunner, type AttemptLimits, type KubeCallEvent } from './kube-call.runner.js';
import { HttpStatusError } from './kube-http.js';
import { fullJitterDelay, isRetryable, retryDelay } from './retry.js';

const status = (code: number, reason: string, message = 'nope') =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });
const apiError = (code: number, reason: string, headers: Record<string, string> = {}) => new HttpStatusError(code, status(code, reason), headers);
const connectionRefused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
const OK = { status: 200, text: 'ok' };

/** Runner with recorded sleeps and calls; `random` fixed at 0.5 so delays are predictable. */
function runner(retries = 3) {
  const sleeps: number[] = [];
  const calls: KubeCallEvent[] = [];
  const warnings: object[] = [];
  const run = new KubeCallRunner({
    timeoutMs: 1000,
    retries,
    backoff: { baseMs: 100, maxMs: 1000 },
    random: () => 0.5,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    onCall: (event) => calls.push(event),
    logger: { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (fields) => warnings.push(fields) },
  });
  return { run, sleeps, calls, warnings };
}

/** An operation failing with the given errors first, then returning 'ok'. */
function failing(...errors: Error[]) {
  let count = 0;
  const operation = () => {
    count++;
    const next = errors.shift();
    return next === undefined ? Promise.resolve(OK) : Promise.reject(next);
  };
  return { operation, attempts: () => count };
}

const get = { verb: 'get', resource: 'pods', namespace: 'ns', name: 'p' } as const;
const create = { verb: 'create', resource: 'pods', namespace: 'ns', name: 'p' } as const;

describe('toKubeApiError', () => {
  it('keeps the HTTP status and the Status reason and message', () => {
    const error = toKubeApiError(apiError(409, 'AlreadyExists'), create);
    expect(error).toMatchObject({ code: 409, reason: 'AlreadyExists', verb: 'create', resource: 'pods', namespace: 'ns', objectName: 'p' });
    expect(error.statusMessage).toBe('nope');
    expect(error.message).toBe('create pods ns/p: 409 AlreadyExists: nope');
  });

  it('reads Retry-After and falls back to a reason by code for non-Status bodies', () => {
    const error = toKubeApiError(new HttpStatusError(429, 'slow down', { 'retry-after': '7' }), get);
    expect(error).toMatchObject({ code: 429, reason: 'TooManyRequests', retryAfterSeconds: 7 });
  });

  it('maps no-response failures to code 0', () => {
    expect(toKubeApiError(connectionRefused(), get)).toMatchObject({ code: 0, reason: 'ConnectionError' });
    expect(toKubeApiError(connectionRefused(), get).message).toContain('ECONNREFUSED');
    expect(toKubeApiError(new DOMException('t', 'TimeoutError'), get)).toMatchObject({ code: 0, reason: 'Timeout' });
    expect(toKubeApiError(Object.assign(new Error('Gone'), { statusCode: 410 }), { verb: 'watch', resource: 'pods' })).toMatchObject({
      code: 410,
      reason: 'Expired',
    });
  });
});

describe('retry policy', () => {
  it('uses full jitter under an exponential, capped ceiling', () => {
    const policy = { baseMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 10].map((attempt) => fullJitterDelay(attempt, policy, () => 0.999))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(fullJitterDelay(3, policy, () => 0)).toBe(0);
  });

  it('waits at least Retry-After', () => {
    const error = toKubeApiError(apiError(429, 'TooManyRequests', { 'retry-after': '2' }), get);
    expect(retryDelay(error, 0, { baseMs: 100, maxMs: 1000 }, () => 0.5)).toBe(2000);
  });

  it.each([
    [429, 'create', false, true],
    [503, 'get', false, true],
    [500, 'delete', false, true],
    [503, 'create', false, false],
    [503, 'create', true, true],
    [0, 'create', false, false],
    [0, 'list', false, true],
    [404, 'get', false, false],
    [409, 'create', true, false],
    [501, 'get', false, false],
  ] as const)('status %i on %s (create safe: %s) → retry %s', (code, verb, safe, expected) => {
    const error = new KubeApiError({ verb, resource: 'pods' }, { code, reason: 'x', message: '' });
    expect(isRetryable(error, verb, safe)).toBe(expected);
  });
});

describe('KubeCallRunner', () => {
  it('retries 429, 5xx and connection errors with growing delays, then succeeds', async () => {
    const { run, sleeps, calls, warnings } = runner(5);
    const op = failing(apiError(429, 'TooManyRequests'), apiError(503, 'ServiceUnavailable'), connectionRefused());
    await expect(run.run(get, op.operation)).resolves.toEqual(OK);
    expect(op.attempts()).toBe(4);
    expect(sleeps).toEqual([50, 100, 200]);
    expect(calls.map((c) => [c.code, c.attempt])).toEqual([
      [429, 0],
      [503, 1],
      [0, 2],
      [200, 3],
    ]);
    expect(warnings).toHaveLength(3);
  });

  it('gives up after the configured number of retries with the last error', async () => {
    const { run, sleeps } = runner(2);
    const op = failing(apiError(500, 'InternalError'), apiError(500, 'InternalError'), apiError(503, 'ServiceUnavailable'));
    await expect(run.run(get, op.operation)).rejects.toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
    expect(op.attempts()).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('keeps retrying past the count until the time budget is spent, so an outage shorter than it is ridden out', async () => {
    // An outage of three failed attempts, well inside a long time budget: ridden out past retries: 1.
    const long = { timeoutMs: 1000, retries: 1, retryForMs: 60_000, backoff: { baseMs: 1, maxMs: 2 } };
    let attempts = 0;
    const outage = () => (++attempts <= 3 ? Promise.reject(apiError(503, 'ServiceUnavailable')) : Promise.resolve(OK));
    await expect(new KubeCallRunner(long).run(get, outage)).resolves.toEqual(OK);
    expect(attempts).toBe(4);

    // A lasting outage: given up once both the count and the time budget are spent, not before.
    const short = { timeoutMs: 1000, retries: 1, retryForMs: 300, backoff: { baseMs: 20, maxMs: 40 } };
    const started = performance.now();
    attempts = 0;
    const down = () => (++attempts, Promise.reject(apiError(503, 'ServiceUnavailable')));
    await expect(new KubeCallRunner(short).run(get, down)).rejects.toMatchObject({ code: 503 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(attempts).toBeGreaterThanOrEqual(2);
  });

  it('does not repeat a create after an ambiguous failure unless told it is safe', async () => {
    const unsafe = runner();
    const once = failing(apiError(503, 'ServiceUnavailable'));
    await expect(unsafe.run.run(create, once.operation)).rejects.toMatchObject({ code: 503 });
    expect(once.attempts()).toBe(1);
    const safe = runner();
    const twice = failing(apiError(503, 'ServiceUnavailable'));
    await expect(safe.run.run(create, twice.operation, { createIsSafe: true })).resolves.toEqual(OK);
    expect(twice.attempts()).toBe(2);
  });

  it('never retries client errors', async () => {
    const { run } = runner();
    const op = failing(apiError(404, 'NotFound'));
    await expect(run.run(get, op.operation)).rejects.toBeInstanceOf(KubeApiError);
    expect(op.attempts()).toBe(1);
  });

  it('honours Retry-After in the pause', async () => {
    const { run, sleeps } = runner();
    await run.run(get, failing(apiError(429, 'TooManyRequests', { 'retry-after': '3' })).operation);
    expect(sleeps).toEqual([3000]);
  });

  it('stops at once when the caller aborts', async () => {
    const { run } = runner();
    const controller = new AbortController();
    controller.abort();
    const op = failing();
    await expect(run.run(get, op.operation, { signal: controller.signal })).rejects.toMatchObject({ reason: 'Aborted' });
    expect(op.attempts()).toBe(0);
  });

  it('gives every attempt the caller signal and its time limit; a TimeoutError from the HTTP layer is a Timeout', async () => {
    const run = new KubeCallRunner({ timeoutMs: 30, retries: 1, backoff: { baseMs: 1, maxMs: 1 } });
    const controller = new AbortController();
    const attempts: AttemptLimits[] = [];
    // What the HTTP layer does with the attempt's limit: destroy the request and reject with a TimeoutError.
    const hanging = (attempt: AttemptLimits) => {
      attempts.push(attempt);
      return new Promise<never>((_resolve, reject) => setTimeout(() => reject(new DOMException('timed out', 'TimeoutError')), attempt.timeoutMs));
    };
    await expect(run.run(get, hanging, { signal: controller.signal })).rejects.toMatchObject({ code: 0, reason: 'Timeout' });
    expect(attempts).toEqual([
      { signal: controller.signal, timeoutMs: 30 },
      { signal: controller.signal, timeoutMs: 30 },
    ]);
  });
});
