/** A token bucket per client: `perMinute` requests, refilled continuously; idle buckets are forgotten. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when allowed, else the seconds until a request would be. */
  take(client: string): number {
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    const bucket = this.buckets.get(client) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * this.perMinute);
    bucket.at = now;
    this.buckets.set(client, bucket);
    if (this.buckets.size > 100_000) this.prune(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) / this.perMinute) * 60);
  }

  private prune(now: number): void {
    for (const [client, bucket] of this.buckets) if (now - bucket.at > 60_000) this.buckets.delete(client);
  }
}
