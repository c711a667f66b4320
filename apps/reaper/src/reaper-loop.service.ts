import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { ReadinessRegistry } from '@antidote/runtime';
import type { LeaderElector } from './leader/leader-elector.js';
import { ReaperPass } from './pass/reaper-pass.service.js';
import { ReaperMetrics } from './pass/reaper.metrics.js';

export const LEADER_ELECTOR = Symbol.for('antidote.reaper.elector');

/**
 * Keeps the lease (every third of its duration) and, while leading, runs a pass every
 * `gc.intervalSeconds`. Replicas that do not lead stand by. Shutdown gives the lease back.
 */
@Injectable()
export class ReaperLoop implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ReaperLoop');
  private readonly stopping = new AbortController();
  private loops: Promise<void>[] = [];

  constructor(
    @Inject(LEADER_ELECTOR) private readonly elector: LeaderElector,
    @Inject(ReaperPass) private readonly pass: ReaperPass,
    @Inject(ReaperMetrics) private readonly metrics: ReaperMetrics,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loops = [this.electionLoop(), this.passLoop()];
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled(this.loops);
    await this.elector.release();
  }

  private async electionLoop(): Promise<void> {
    const signal = this.stopping.signal;
    let wasLeader = false;
    try {
      await this.readiness.waitUntilReady(undefined, 250, signal);
      while (!signal.aborted) {
        const leading = await this.elector.tick();
        if (leading !== wasLeader) this.logger.log(leading ? `${this.elector.identity} leads the reapers` : `${this.elector.identity} stands by`);
        wasLeader = leading;
        this.metrics.leader.set(leading ? 1 : 0);
        await sleep((this.config.gc.leaseDurationSeconds * 1000) / 3, undefined, { signal });
      }
    } catch {
      // aborted on shutdown
    }
  }

  private async passLoop(): Promise<void> {
    const signal = this.stopping.signal;
    try {
      await this.readiness.waitUntilReady(undefined, 250, signal);
      while (!signal.aborted) {
        if (this.elector.isLeader) {
          await this.pass
            .run(this.elector.identity)
            .catch((error: unknown) => this.logger.error(`pass failed: ${error instanceof Error ? error.message : String(error)}`));
        }
        await sleep(this.config.gc.intervalSeconds * 1000, undefined, { signal });
      }
    } catch {
      // aborted on shutdown
    }
  }
}
