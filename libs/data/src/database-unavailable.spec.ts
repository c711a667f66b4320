import { describe, expect, it } from 'vitest';
import { connectWithRetry, isDatabaseUnavailable } from './database-unavailable.js';

const withCode = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    { case: 'connection refused', error: withCode('ECONNREFUSED'), unavailable: true },
    { case: 'PostgreSQL starting up (57P03)', error: withCode('57P03', 'the database system is starting up'), unavailable: true },
    {
      case: 'administrator shutdown (57P01), wrapped by TypeORM',
      error: Object.assign(new Error('query failed'), { driverError: withCode('57P01') }),
      unavailable: true,
    },
    { case: 'a connection cut mid-statement (words only)', error: new Error('Connection terminated unexpectedly'), unavailable: true },
    { case: 'the pool timing out a checkout', error: new Error('timeout exceeded when trying to connect'), unavailable: true },
    { case: 'SQLite busy past its timeout', error: withCode('SQLITE_BUSY'), unavailable: true },
    { case: 'a unique violation', error: withCode('23505'), unavailable: false },
    { case: 'a syntax error', error: withCode('42601', 'syntax error at or near "SELEC"'), unavailable: false },
    { case: 'not an error at all', error: 'ECONNREFUSED', unavailable: false },
    {
      case: 'a Kubernetes call refused (a socket error as its cause only)',
      error: new Error('create pods: no response ConnectionError: connect ECONNREFUSED', { cause: withCode('ECONNREFUSED') }),
      unavailable: false,
    },
  ])('$case: $unavailable', ({ error, unavailable }) => {
    expect(isDatabaseUnavailable(error)).toBe(unavailable);
  });
});

describe('connectWithRetry', () => {
  it('tries again while the server is away, and returns the connection it then gets', async () => {
    let attempts = 0;
    const connect = () => (++attempts < 3 ? Promise.reject(withCode('ECONNREFUSED')) : Promise.resolve('connection'));
    expect(await connectWithRetry(connect, 60_000)).toBe('connection');
    expect(attempts).toBe(3);
  });

  it('gives up with the last error once its budget is spent, and at once on any other error', async () => {
    let attempts = 0;
    await expect(connectWithRetry(() => (attempts++, Promise.reject(withCode('ECONNREFUSED', 'refused'))), 0)).rejects.toThrow('refused');
    expect(attempts).toBe(1);
    attempts = 0;
    await expect(connectWithRetry(() => (attempts++, Promise.reject(withCode('28P01', 'password authentication failed'))), 60_000)).rejects.toThrow('password');
    expect(attempts).toBe(1);
  });
});
