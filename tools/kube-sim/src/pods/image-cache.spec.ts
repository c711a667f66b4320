import { describe, expect, it } from 'vitest';
import { defaultFaults } from '../faults.js';
import { ImageCache, pullDelayOf } from './image-cache.js';

/** A timer the test fires by hand. */
function manualTimers() {
  const pending: { ms: number; step: () => void }[] = [];
  return { pending, schedule: (ms: number, step: () => void) => void pending.push({ ms, step }) };
}

describe('ImageCache', () => {
  it('pulls an image once per node: the first asker waits for the pull, later ones do not', () => {
    const cache = new ImageCache();
    const timers = manualTimers();
    const done: string[] = [];
    cache.ensure('n0', 'img', 5000, timers.schedule, () => done.push('first'));
    expect(done).toEqual([]);
    expect(timers.pending).toHaveLength(1);
    expect(timers.pending[0].ms).toBe(5000);
    timers.pending[0].step();
    expect(done).toEqual(['first']);
    expect(cache.has('n0', 'img')).toBe(true);
    cache.ensure('n0', 'img', 5000, timers.schedule, () => done.push('second'));
    expect(done).toEqual(['first', 'second']);
    expect(timers.pending).toHaveLength(1);
  });

  it('makes a pod arriving during a pull wait for that same pull, not start another', () => {
    const cache = new ImageCache();
    const timers = manualTimers();
    const done: string[] = [];
    cache.ensure('n0', 'img', 10, timers.schedule, () => done.push('a'));
    cache.ensure('n0', 'img', 10, timers.schedule, () => done.push('b'));
    expect(timers.pending).toHaveLength(1);
    expect(cache.has('n0', 'img')).toBe(false);
    timers.pending[0].step();
    expect(done).toEqual(['a', 'b']);
  });

  it('keeps each node its own images, and forgets them on clear', () => {
    const cache = new ImageCache();
    const timers = manualTimers();
    cache.ensure('n0', 'img', 10, timers.schedule, () => undefined);
    timers.pending[0].step();
    expect(cache.has('n1', 'img')).toBe(false);
    expect(cache.imagesOn('n0')).toEqual(['img']);
    cache.clear('n0');
    expect(cache.has('n0', 'img')).toBe(false);
  });
});

describe('pullDelayOf', () => {
  it.each([
    ['vendor/vqfx:1', 60_000],
    ['antidotelabs/utility:latest', 7],
    ['big/anything', 1000],
  ])('%s takes %i ms', (image, expected) => {
    const faults = { ...defaultFaults(), imagePullDelayMs: 7, imagePullDelays: { vqfx: 60_000, 'big/*': 1000 } };
    expect(pullDelayOf(faults, image)).toBe(expected);
  });
});
