/**
 * Per-live-lesson serialisation with a global concurrency limit.
 *
 * - Operations on one live lesson never overlap: they run one after another, in arrival order.
 * - At most `limit` operations run at once over all live lessons; the others wait in FIFO order
 *   (deletes first: they free capacity and must not starve behind slow creates).
 * - Duplicates coalesce: a create or delete already queued or running for the lesson absorbs a new
 *   one; a queued stage change is superseded by a newer one (the handler reads the stage from the
 *   database, so the newest request wins).
 * - A delete cancels the lesson's running create or stage change (its AbortSignal fires) and drops
 *   queued ones, then runs once the cancelled operation has stopped.
 */
export type OperationKind = 'create' | 'modify' | 'delete';

export type Operation = (signal: AbortSignal) => Promise<void>;

export interface EnqueueResult {
  /** False when an equivalent operation was already queued or running. */
  queued: boolean;
  /** Settles when the operation has run (or was dropped by a delete). */
  done: Promise<void>;
}

interface Entry {
  lessonId: string;
  kind: OperationKind;
  run: Operation;
  controller: AbortController;
  settle: () => void;
  done: Promise<void>;
}

interface LessonLane {
  running?: Entry;
  pending: Entry[];
}

export interface WorkQueueObserver {
  onError?(lessonId: string, kind: OperationKind, error: unknown): void;
  onChange?(stats: { running: number; waiting: number }): void;
}

export class LessonWorkQueue {
  private readonly lanes = new Map<string, LessonLane>();
  /** Lessons whose head operation waits for a slot, in arrival order. */
  private readonly ready: Entry[] = [];
  private running = 0;
  private closed = false;

  constructor(
    private readonly limit: number,
    private readonly observer: WorkQueueObserver = {},
  ) {}

  enqueue(lessonId: string, kind: OperationKind, run: Operation): EnqueueResult {
    const lane = this.lanes.get(lessonId) ?? { pending: [] };
    this.lanes.set(lessonId, lane);
    const duplicate = this.coalesce(lane, kind);
    if (duplicate) return { queued: false, done: duplicate.done };
    let settle = (): void => undefined;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const entry: Entry = { lessonId, kind, run, controller: new AbortController(), settle, done };
    if (this.closed) {
      entry.controller.abort(new Error('scheduler is shutting down'));
      settle();
      return { queued: false, done };
    }
    lane.pending.push(entry);
    if (!lane.running && lane.pending.length === 1) this.markReady(entry);
    this.pump();
    return { queued: true, done };
  }

  /** What is queued or running for a lesson (for idempotency decisions and tests). */
  kindsFor(lessonId: string): OperationKind[] {
    const lane = this.lanes.get(lessonId);
    if (!lane) return [];
    return [...(lane.running ? [lane.running.kind] : []), ...lane.pending.map((entry) => entry.kind)];
  }

  stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.ready.length };
  }

  /** Stops taking work, aborts everything running or queued, and waits until running operations stop. */
  async close(): Promise<void> {
    this.closed = true;
    const running: Promise<void>[] = [];
    for (const lane of this.lanes.values()) {
      for (const entry of lane.pending) {
        entry.controller.abort(new Error('scheduler is shutting down'));
        entry.settle();
      }
      lane.pending = [];
      if (lane.running) {
        lane.running.controller.abort(new Error('scheduler is shutting down'));
        running.push(lane.running.done);
      }
    }
    this.ready.length = 0;
    await Promise.all(running);
  }

  private coalesce(lane: LessonLane, kind: OperationKind): Entry | undefined {
    const all = [...(lane.running ? [lane.running] : []), ...lane.pending];
    switch (kind) {
      case 'create':
        return all.find((entry) => entry.kind === 'create' || entry.kind === 'delete');
      case 'modify': {
        if (all.some((entry) => entry.kind === 'delete')) return all.find((entry) => entry.kind === 'delete');
        const queued = lane.pending.find((entry) => entry.kind === 'modify');
        return queued;
      }
      case 'delete': {
        const existing = all.find((entry) => entry.kind === 'delete');
        if (existing) return existing;
        for (const entry of lane.pending) {
          entry.controller.abort(new Error('cancelled by a delete'));
          this.unready(entry);
          entry.settle();
        }
        lane.pending = [];
        lane.running?.controller.abort(new Error('cancelled by a delete'));
        return undefined;
      }
    }
  }

  private markReady(entry: Entry): void {
    if (entry.kind === 'delete') {
      const firstNonDelete = this.ready.findIndex((other) => other.kind !== 'delete');
      this.ready.splice(firstNonDelete === -1 ? this.ready.length : firstNonDelete, 0, entry);
    } else {
      this.ready.push(entry);
    }
  }

  private unready(entry: Entry): void {
    const index = this.ready.indexOf(entry);
    if (index !== -1) this.ready.splice(index, 1);
  }

  private pump(): void {
    while (this.running < this.limit && this.ready.length > 0) {
      const entry = this.ready.shift()!;
      const lane = this.lanes.get(entry.lessonId)!;
      lane.pending.shift();
      lane.running = entry;
      this.running++;
      void this.execute(entry, lane);
    }
    this.observer.onChange?.(this.stats());
  }

  private async execute(entry: Entry, lane: LessonLane): Promise<void> {
    try {
      await entry.run(entry.controller.signal);
    } catch (error) {
      this.observer.onError?.(entry.lessonId, entry.kind, error);
    } finally {
      this.running--;
      lane.running = undefined;
      entry.settle();
      const next = lane.pending[0];
      if (next) this.markReady(next);
      else this.lanes.delete(entry.lessonId);
      this.pump();
    }
  }
}
