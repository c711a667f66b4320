interface Waiter {
  rank: number;
  turn: () => void;
}

/**
 * At most `limit` holders at once. The others wait in order of rank (lower first), and in arrival order
 * among equal ranks; an unranked caller ranks after everyone (plain FIFO when nobody passes a rank).
 * An abort leaves the line.
 */
export class Semaphore {
  private held = 0;
  private mostHeld = 0;
  private readonly line: Waiter[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`semaphore limit must be a positive integer, got ${limit}`);
  }

  /** Holders now and waiters (metrics, tests). */
  get stats(): { held: number; waiting: number } {
    return { held: this.held, waiting: this.line.length };
  }

  /** The most holders there ever were at once. */
  get peak(): number {
    return this.mostHeld;
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal, rank = Number.POSITIVE_INFINITY): Promise<T> {
    await this.acquire(rank, signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(rank: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.held < this.limit) {
      this.take();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        rank,
        turn: () => {
          signal?.removeEventListener('abort', onAbort);
          this.take();
          resolve();
        },
      };
      const onAbort = (): void => {
        const at = this.line.indexOf(waiter);
        if (at >= 0) this.line.splice(at, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted while waiting for a slot'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.line.splice(this.placeFor(rank), 0, waiter);
    });
  }

  /** The index after every waiter of a rank ≤ `rank` (binary search; the line stays sorted). */
  private placeFor(rank: number): number {
    let low = 0;
    let high = this.line.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.line[middle].rank <= rank) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private take(): void {
    this.held++;
    this.mostHeld = Math.max(this.mostHeld, this.held);
  }

  private release(): void {
    this.held--;
    this.line.shift()?.turn();
  }
}
