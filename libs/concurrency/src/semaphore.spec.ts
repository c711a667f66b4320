import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.js';

const gate = () => {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};

describe('Semaphore', () => {
  it('lets `limit` tasks run at once and the rest in arrival order', async () => {
    const semaphore = new Semaphore(2);
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) => semaphore.run(async () => (started.push(i), g.opened)));
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(semaphore.stats).toEqual({ held: 2, waiting: 1 });
    gates[1].open();
    await runs[1];
    await expect.poll(() => started).toEqual([0, 1, 2]);
    gates[0].open();
    gates[2].open();
    await Promise.all(runs);
    expect(semaphore.stats).toEqual({ held: 0, waiting: 0 });
    expect(semaphore.peak).toBe(2);
  });

  it('an aborted waiter leaves the line without taking a slot', async () => {
    const semaphore = new Semaphore(1);
    const first = gate();
    const running = semaphore.run(() => first.opened);
    const controller = new AbortController();
    const waiting = semaphore.run(() => Promise.resolve('never'), controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    first.open();
    await running;
    expect(semaphore.stats).toEqual({ held: 0, waiting: 0 });
  });

  it('serves waiters by rank, arrival order among equal ranks, unranked ones last', async () => {
    const semaphore = new Semaphore(1);
    const first = gate();
    const order: string[] = [];
    const holder = semaphore.run(() => first.opened);
    const note = (label: string) => () => Promise.resolve(void order.push(label));
    const waiters = [
      semaphore.run(note('unranked')),
      semaphore.run(note('rank 5 (a)'), undefined, 5),
      semaphore.run(note('rank 2'), undefined, 2),
      semaphore.run(note('rank 5 (b)'), undefined, 5),
    ];
    expect(semaphore.stats).toEqual({ held: 1, waiting: 4 });
    first.open();
    await Promise.all([holder, ...waiters]);
    expect(order).toEqual(['rank 2', 'rank 5 (a)', 'rank 5 (b)', 'unranked']);
  });

  it('refuses a limit below 1', () => {
    expect(() => new Semaphore(0)).toThrow(/positive integer/);
  });
});
