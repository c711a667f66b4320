/** At most `limit` holders at once; the others wait in FIFO order (an abort leaves the line). */
export class Semaphore {
  private held = 0;
  private readonly line: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`semaphore limit must be a positive integer, got ${limit}`);
  }

  /** Holders now and waiters (metrics, tests). */
  get stats(): { held: number; waiting: number } {
    return { held: this.held, waiting: this.line.length };
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.held < this.limit) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const turn = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.held++;
        resolve();
      };
      const onAbort = (): void => {
        const at = this.line.indexOf(turn);
        if (at >= 0) this.line.splice(at, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted while waiting for a slot'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.line.push(turn);
    });
  }

  private release(): void {
    this.held--;
    this.line.shift()?.();
  }
}
