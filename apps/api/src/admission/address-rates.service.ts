import { Inject, Injectable } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { DataManager } from '@antidote/data';
import { MetricsService } from '@antidote/runtime';
import { newRate } from './admission.errors.js';

/** Buckets untouched this long (or their window, if longer) are forgotten: each is full again by then. */
const FORGET_AFTER_MS = 24 * 60 * 60_000;
const FORGET_EVERY_MS = 10 * 60_000;

/**
 * Per-address limits on the *rate* of new sessions and new labs (`api.newSessionsPerAddress`,
 * `api.newLabsPerAddress`): token buckets in the database, so every api replica draws from the same
 * one and a classroom behind one address gets its burst, then a steady refill — instead of a cap on
 * what an address holds, which locks a room out for as long as its sessions live. The client address is
 * the one `client-ip.ts` resolves.
 */
@Injectable()
export class AddressRates {
  private readonly refused;
  private forgotAt = 0;

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(MetricsService) metrics: MetricsService,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {
    this.refused = metrics.counter({
      name: 'antidote_admission_rate_limited_total',
      help: 'New sessions and labs refused by the per-address rate limits',
      labelNames: ['kind'],
    });
  }

  /** Takes a token of `client`'s bucket of new sessions or labs, or throws 429 with Retry-After. */
  async take(kind: 'session' | 'lab', client: string): Promise<void> {
    const rate = kind === 'session' ? this.config.api.newSessionsPerAddress : this.config.api.newLabsPerAddress;
    const wait = await this.bucket(`${kind}:${client}`, rate);
    if (wait === 0) return;
    this.refused.inc({ kind });
    throw newRate(kind, rate.count, rate.perSeconds, wait);
  }

  private async bucket(bucket: string, rate: { count: number; perSeconds: number }): Promise<number> {
    if (rate.count <= 0) return 0;
    const now = Date.now();
    if (now - this.forgotAt > FORGET_EVERY_MS) {
      this.forgotAt = now;
      const { newSessionsPerAddress, newLabsPerAddress } = this.config.api;
      await this.data.rateBuckets.forget(
        new Date(now - Math.max(FORGET_AFTER_MS, newSessionsPerAddress.perSeconds * 1000, newLabsPerAddress.perSeconds * 1000)),
      );
    }
    return this.data.rateBuckets.take(bucket, rate);
  }
}
