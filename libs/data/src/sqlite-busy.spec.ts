import { describe, expect, it } from 'vitest';
import { retryWhileBusy } from './sqlite-busy.js';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** An attempt refused `refusals` times, then answering 'done'; counts its calls. */
function attemptRefused(refusals: number, error: () => Error = busy) {
  const calls = { count: 0 };
  const attempt = () => {
    calls.count++;
    return calls.count <= refusals ? Promise.reject(error()) : Promise.resolve('done');
  };
  return { attempt, calls };
}

describe('retryWhileBusy', () => {
  it('tries again while the database is busy, until it answers', async () => {
    const { attempt, calls } = attemptRefused(3);
    await expect(retryWhileBusy(attempt)).resolves.toBe('done');
    expect(calls.count).toBe(4);
  });

  it('makes one attempt when its time ran out while it waited in line, and fails busy', async () => {
    const { attempt, calls } = attemptRefused(Infinity);
    await expect(retryWhileBusy(attempt, { giveUpAt: Date.now() - 1 })).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(calls.count).toBe(1);
  });

  it.each([
    { case: 'another error', error: () => new Error('no such table'), canRetry: () => true },
    { case: 'a busy refusal it may not repeat (inside a transaction)', error: busy, canRetry: () => false },
  ])('fails at once on $case', async ({ error, canRetry }) => {
    const { attempt, calls } = attemptRefused(Infinity, error);
    await expect(retryWhileBusy(attempt, { canRetry, giveUpAt: Date.now() + 60_000 })).rejects.toThrow();
    expect(calls.count).toBe(1);
  });
});
