import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { linkedSignal } from './linked-signal.js';

describe('linkedSignal', () => {
  it('aborts with the reason of the first source that aborts, and stops listening to the others', () => {
    const [first, second] = [new AbortController(), new AbortController()];
    const linked = linkedSignal([first.signal, second.signal]);
    expect(linked.signal.aborted).toBe(false);
    second.abort(new Error('cancelled by a delete'));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('cancelled by a delete');
    expect(getEventListeners(first.signal, 'abort')).toHaveLength(0);
  });

  it('is aborted at once when a source already is', () => {
    const source = new AbortController();
    source.abort(new Error('shutting down'));
    const linked = linkedSignal([new AbortController().signal, source.signal]);
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('shutting down');
  });

  it('leaves no listener on its sources once disposed, and no longer follows them', () => {
    const [first, second] = [new AbortController(), new AbortController()];
    const linked = linkedSignal([first.signal, second.signal]);
    linked.signal.addEventListener('abort', () => undefined);
    linked.dispose();
    linked.dispose();
    expect(getEventListeners(first.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(second.signal, 'abort')).toHaveLength(0);
    first.abort();
    expect(linked.signal.aborted).toBe(false);
  });

  it('links any number of signals to one long-lived source through one abort listener on it, and none once they are disposed', () => {
    const shutdown = new AbortController();
    const operations = Array.from({ length: 50 }, () => linkedSignal([shutdown.signal]));
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(1);
    for (const operation of operations.slice(0, 25)) operation.dispose();
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(1);
    shutdown.abort(new Error('shutting down'));
    expect(operations.map((operation) => operation.signal.aborted)).toEqual([...Array(25).fill(false), ...Array(25).fill(true)]);
    expect((operations[49].signal.reason as Error).message).toBe('shutting down');
    const again = new AbortController();
    for (const operation of Array.from({ length: 50 }, () => linkedSignal([again.signal]))) operation.dispose();
    expect(getEventListeners(again.signal, 'abort')).toHaveLength(0);
  });
});
