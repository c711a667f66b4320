import { describe, expect, it } from 'vitest';
import { LessonWorkQueue, type Operation } from './lesson-work-queue.js';

/** An operation that records its start and waits until released (or aborted). */
function gate(log: string[], name: string): { op: Operation; release: () => void; aborted: () => boolean } {
  let release = (): void => undefined;
  let wasAborted = false;
  const op: Operation = (signal) =>
    new Promise<void>((resolve) => {
      log.push(`start ${name}`);
      release = () => {
        log.push(`end ${name}`);
        resolve();
      };
      signal.addEventListener('abort', () => {
        wasAborted = true;
        log.push(`abort ${name}`);
        resolve();
      });
    });
  return { op, release: () => release(), aborted: () => wasAborted };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('LessonWorkQueue', () => {
  it('never runs two operations of one lesson at once, and keeps their order', async () => {
    const log: string[] = [];
    const queue = new LessonWorkQueue(10);
    const create = gate(log, 'create');
    const modify = gate(log, 'modify');
    queue.enqueue('a', 'create', create.op);
    queue.enqueue('a', 'modify', modify.op);
    await tick();
    expect(log).toEqual(['start create']);
    create.release();
    await tick();
    expect(log).toEqual(['start create', 'end create', 'start modify']);
    modify.release();
  });

  it('runs different lessons in parallel up to the limit, the rest in arrival order', async () => {
    const log: string[] = [];
    const queue = new LessonWorkQueue(2);
    const gates = ['a', 'b', 'c', 'd'].map((id) => gate(log, id));
    gates.forEach((g, i) => queue.enqueue(String(i), 'create', g.op));
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    expect(queue.stats()).toEqual({ running: 2, waiting: 2 });
    gates[1].release();
    await tick();
    expect(log.slice(-1)).toEqual(['start c']);
    gates[0].release();
    await tick();
    expect(log.slice(-1)).toEqual(['start d']);
  });

  it.each([
    ['create', 'create', false],
    ['delete', 'delete', false],
    ['delete', 'create', false],
    ['create', 'modify', true],
    ['create', 'delete', true],
  ] as const)('after a running %s, a new %s is queued=%s', async (first, second, queued) => {
    const log: string[] = [];
    const queue = new LessonWorkQueue(1);
    queue.enqueue('a', first, gate(log, first).op);
    await tick();
    expect(queue.enqueue('a', second, gate(log, second).op).queued).toBe(queued);
  });

  it('lets a newer stage change supersede a queued one', () => {
    const log: string[] = [];
    const queue = new LessonWorkQueue(1);
    const create = gate(log, 'create');
    queue.enqueue('a', 'create', create.op);
    expect(queue.enqueue('a', 'modify', gate(log, 'm1').op).queued).toBe(true);
    expect(queue.enqueue('a', 'modify', gate(log, 'm2').op).queued).toBe(false);
    expect(queue.kindsFor('a')).toEqual(['create', 'modify']);
  });

  it('cancels a running create when a delete arrives, drops queued work, then deletes', async () => {
    const log: string[] = [];
    const queue = new LessonWorkQueue(5);
    const create = gate(log, 'create');
    const modify = gate(log, 'modify');
    const remove = gate(log, 'delete');
    queue.enqueue('a', 'create', create.op);
    queue.enqueue('a', 'modify', modify.op);
    await tick();
    const result = queue.enqueue('a', 'delete', remove.op);
    await tick();
    expect(create.aborted()).toBe(true);
    expect(modify.aborted()).toBe(false);
    expect(log).toEqual(['start create', 'abort create', 'start delete']);
    remove.release();
    await result.done;
    expect(queue.kindsFor('a')).toEqual([]);
  });

  it('puts deletes ahead of waiting creates when all slots are busy', async () => {
    const log: string[] = [];
    const queue = new LessonWorkQueue(1);
    const first = gate(log, 'x');
    queue.enqueue('x', 'create', first.op);
    queue.enqueue('y', 'create', gate(log, 'y').op);
    queue.enqueue('z', 'delete', gate(log, 'z-delete').op);
    await tick();
    first.release();
    await tick();
    expect(log).toEqual(['start x', 'end x', 'start z-delete']);
  });

  it('survives a failing operation and reports it', async () => {
    const errors: string[] = [];
    const queue = new LessonWorkQueue(1, { onError: (id, kind, error) => errors.push(`${id}/${kind}: ${(error as Error).message}`) });
    await queue.enqueue('a', 'create', () => Promise.reject(new Error('boom'))).done;
    const log: string[] = [];
    const next = gate(log, 'next');
    queue.enqueue('a', 'modify', next.op);
    await tick();
    expect(errors).toEqual(['a/create: boom']);
    expect(log).toEqual(['start next']);
    next.release();
  });

  it('aborts everything on close and waits for running operations to stop', async () => {
    const log: string[] = [];
    const queue = new LessonWorkQueue(1);
    const running = gate(log, 'running');
    queue.enqueue('a', 'create', running.op);
    const waiting = queue.enqueue('b', 'create', gate(log, 'waiting').op);
    await tick();
    await queue.close();
    await waiting.done;
    expect(log).toEqual(['start running', 'abort running']);
    expect(queue.enqueue('c', 'create', gate(log, 'late').op).queued).toBe(false);
  });
});
