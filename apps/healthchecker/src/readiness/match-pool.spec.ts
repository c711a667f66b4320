import { linearTimeRegExp } from '@antidote/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { MatchPool } from './match-pool.js';

/** Backtracks for longer than the universe has existed: still running whenever a test looks. */
const RUNAWAY = { pattern: '^(a+)+\\1$', text: `${'a'.repeat(64)}!` };
const HOUR = 3_600_000;

describe('MatchPool', () => {
  const pools: MatchPool[] = [];
  const pool = (maxWorkers = 2) => {
    const created = new MatchPool({ maxWorkers, quarantineMs: HOUR, idleMs: 60_000 });
    pools.push(created);
    return created;
  };
  afterEach(async () => {
    for (const created of pools.splice(0)) await created.close();
  });

  it('runs patterns off the caller’s event loop: timers fire and another match finishes while a runaway one runs', async () => {
    const matches = pool();
    let runawayDone = false;
    const runaway = matches.match(RUNAWAY.pattern, RUNAWAY.text, HOUR).then((outcome) => ((runawayDone = true), outcome));
    for (let tick = 0; tick < 20; tick++) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(await matches.match('Model: \\S+', 'Model: vqfx-10000', HOUR)).toBe('matched');
    expect({ runawayDone, running: matches.running }).toEqual({ runawayDone: false, running: 1 });
    await matches.close();
    expect(await runaway).toBe('too-slow');
  });

  it('stops a match at its time limit, then answers that pattern too-slow without running it', async () => {
    const matches = pool();
    expect(await matches.match(RUNAWAY.pattern, RUNAWAY.text, 200)).toBe('too-slow');
    const again = matches.match(RUNAWAY.pattern, 'a', HOUR);
    expect(matches.running).toBe(0);
    expect(await again).toBe('too-slow');
    // Another pattern is not held against it.
    expect(await matches.match('^a$', 'a', HOUR)).toBe('matched');
  });

  it('stops at its limit a pattern that validation lets through (linear time) yet takes seconds on 8 KiB of answer', async () => {
    const slowButLinear = '((.*)(.*)(.*)(.*)(.*)(.*)(.*)a){16}'.repeat(7).slice(0, 256);
    expect(linearTimeRegExp(slowButLinear)).toBeDefined();
    expect(await pool().match(slowButLinear, `${'a'.repeat(8191)}!`, 200)).toBe('too-slow');
  });

  it('queues past maxWorkers: with one thread, the next match waits for the runaway one to be stopped', async () => {
    const matches = pool(1);
    const order: string[] = [];
    const runaway = matches.match(RUNAWAY.pattern, RUNAWAY.text, 300).then((outcome) => order.push(`runaway ${outcome}`));
    const plain = matches.match('^ok$', 'ok', HOUR).then((outcome) => order.push(`plain ${outcome}`));
    await Promise.all([runaway, plain]);
    expect(order).toEqual(['runaway too-slow', 'plain matched']);
  });

  it('uses the linear-time engine where it can, the backtracking one for the rest; an invalid pattern is invalid', async () => {
    const matches = pool();
    expect(await matches.match('^(a|aa)+$', `${'a'.repeat(8000)}!`, HOUR)).toBe('no-match');
    expect(await matches.match('^(ab)\\1$', 'abab', HOUR)).toBe('matched');
    expect(await matches.match('(', 'x', HOUR)).toBe('invalid');
  });
});
