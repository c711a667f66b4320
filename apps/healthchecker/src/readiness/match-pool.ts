import { Worker } from 'node:worker_threads';

export type MatchOutcome = 'matched' | 'no-match' | 'too-slow' | 'invalid';

/**
 * The worker: tests one pattern on one text per message, on V8's linear-time engine when it can run the
 * pattern, else on the backtracking one (a pattern from before validation refused those); the pool's
 * time limit bounds either. Inline source: nothing to build or find on disk.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
require('node:v8').setFlagsFromString('--enable-experimental-regexp-engine');
const compile = (pattern) => { try { return new RegExp(pattern, 'l'); } catch { try { return new RegExp(pattern); } catch { return undefined; } } };
parentPort.on('message', ({ pattern, text }) => {
  const regex = compile(pattern);
  parentPort.postMessage(regex === undefined ? 'invalid' : regex.test(text) ? 'matched' : 'no-match');
});
`;

export interface MatchPoolOptions {
  /** Matches running at once, each on a thread of its own (more wait their turn). */
  maxWorkers: number;
  /** A pattern that ran out of time is answered `too-slow` without running for this long. */
  quarantineMs: number;
  /** An idle worker ends after this long. */
  idleMs: number;
}

interface Job {
  pattern: string;
  text: string;
  timeLimitMs: number;
  settle: (outcome: MatchOutcome) => void;
}

const QUARANTINE_LIMIT = 1000;

/**
 * Readiness patterns from curricula, matched on worker threads so that none ever runs on the caller's
 * event loop: whatever a pattern does, the healthchecker keeps answering `/healthz` and probing other labs.
 * Each match has a time limit; past it the worker is stopped (its match ends as `too-slow`) and the pattern
 * is not run again for `quarantineMs`, so one hostile pattern cannot keep taking a thread. Matches run in
 * parallel up to `maxWorkers`, so one slow pattern does not hold back another lab's.
 */
export class MatchPool {
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly quarantine = new Map<string, number>();
  private readonly idleTimers = new Map<Worker, NodeJS.Timeout>();
  /** Workers running a match, each with what stops it. */
  private readonly active = new Map<Worker, () => void>();
  private busy = 0;

  constructor(private readonly options: MatchPoolOptions) {}

  /** Matches being run now (on a worker or starting one). */
  get running(): number {
    return this.busy;
  }

  match(pattern: string, text: string, timeLimitMs: number): Promise<MatchOutcome> {
    const until = this.quarantine.get(pattern);
    if (until !== undefined && until > Date.now()) return Promise.resolve('too-slow');
    this.quarantine.delete(pattern);
    return new Promise((settle) => {
      this.queue.push({ pattern, text, timeLimitMs, settle });
      this.pump();
    });
  }

  /** Stops every worker (running and queued matches end as `too-slow`). */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) job.settle('too-slow');
    for (const stop of [...this.active.values()]) stop();
    const workers = this.idle.splice(0);
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0 && (this.idle.length > 0 || this.busy < this.options.maxWorkers)) {
      const job = this.queue.shift()!;
      this.busy++;
      const worker = this.idle.pop();
      if (worker) {
        clearTimeout(this.idleTimers.get(worker));
        this.idleTimers.delete(worker);
        this.run(worker, job, true);
      } else {
        const fresh = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 } });
        fresh.unref();
        fresh.on('error', () => undefined); // it exits next, and that ends its match
        this.run(fresh, job, false);
      }
    }
  }

  /** Runs `job` on `worker`; on a new worker the time limit starts once its thread is up (a busy machine's start-up is not the pattern's time). */
  private run(worker: Worker, job: Job, online: boolean): void {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: MatchOutcome, reusable: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('exit', onExit).off('online', start);
      this.active.delete(worker);
      this.busy--;
      if (reusable) this.keep(worker);
      else void worker.terminate();
      job.settle(outcome);
      this.pump();
    };
    const onMessage = (outcome: MatchOutcome): void => finish(outcome, true);
    // Stopped at its limit, or dead (out of its memory): the pattern is too slow, and not run again for a while.
    const tooSlow = (): void => {
      this.remember(job.pattern);
      finish('too-slow', false);
    };
    const onExit = tooSlow;
    const start = (): void => void (timer = setTimeout(tooSlow, job.timeLimitMs));
    this.active.set(worker, () => finish('too-slow', false));
    worker.on('message', onMessage).once('exit', onExit);
    if (online) start();
    else worker.once('online', start);
    worker.postMessage({ pattern: job.pattern, text: job.text });
  }

  private keep(worker: Worker): void {
    this.idle.push(worker);
    const timer = setTimeout(() => {
      this.idleTimers.delete(worker);
      const index = this.idle.indexOf(worker);
      if (index !== -1) this.idle.splice(index, 1);
      void worker.terminate();
    }, this.options.idleMs);
    timer.unref();
    this.idleTimers.set(worker, timer);
  }

  private remember(pattern: string): void {
    if (this.quarantine.size >= QUARANTINE_LIMIT) this.quarantine.delete(this.quarantine.keys().next().value!);
    this.quarantine.set(pattern, Date.now() + this.options.quarantineMs);
  }
}
