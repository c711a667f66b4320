/**
 * A counting semaphore with FIFO waiters: at most `limit` probes hold sockets at once, over every
 * request the healthchecker serves. An aborted waiter leaves the queue.
 */
export class ConcurrencyLimiter {
  private active = 0;
  private peakActive = 0;
  private readonly waiters: { resolve: () => void; reject: (error: unknown) => void; signal?: AbortSignal; onAbort?: () => void }[] = [];

  constructor(readonly limit: number) {}

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** The most ever running at once. */
  get peak(): number {
    return this.peakActive;
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
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.active < this.limit) {
      this.take();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: (typeof this.waiters)[number] = { resolve, reject, signal };
      waiter.onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index !== -1) this.waiters.splice(index, 1);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private take(): void {
    this.active++;
    this.peakActive = Math.max(this.peakActive, this.active);
  }

  private release(): void {
    this.active--;
    const next = this.waiters.shift();
    if (next) {
      if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort);
      this.take();
      next.resolve();
    }
  }
}
