import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deadline } from './deadline.js';

describe('deadline', () => {
  afterEach(() => vi.useRealTimers());

  it('aborts with a TimeoutError once the time has passed, and stops listening to the parent', () => {
    vi.useFakeTimers();
    const parent = new AbortController();
    const { signal } = deadline(1000, parent.signal);
    vi.advanceTimersByTime(999);
    expect(signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ name: 'TimeoutError' });
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });

  it("aborts with the parent's reason when the parent aborts first, and clears its timer", () => {
    vi.useFakeTimers();
    const parent = new AbortController();
    const { signal } = deadline(1000, parent.signal);
    parent.abort(new Error('shutting down'));
    expect(signal.reason).toEqual(new Error('shutting down'));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is aborted at once under an aborted parent', () => {
    const parent = new AbortController();
    parent.abort(new Error('gone'));
    const { signal, dispose } = deadline(1000, parent.signal);
    expect(signal.reason).toEqual(new Error('gone'));
    dispose();
  });

  it('leaves no timer and no listener once disposed, and never aborts after', () => {
    vi.useFakeTimers();
    const parent = new AbortController();
    const { signal, dispose } = deadline(1000, parent.signal);
    dispose();
    dispose();
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    vi.advanceTimersByTime(5000);
    parent.abort();
    expect(signal.aborted).toBe(false);
  });

  it('works without a parent', () => {
    vi.useFakeTimers();
    const { signal } = deadline(10);
    vi.advanceTimersByTime(10);
    expect(signal.reason).toMatchObject({ name: 'TimeoutError' });
  });
});
