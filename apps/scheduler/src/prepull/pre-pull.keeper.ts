import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { ReadinessRegistry } from '@antidote/runtime';
import { reasonOf } from '../lesson/lesson-failure.error.js';
import { SchedulerMetrics } from '../scheduler.metrics.js';
import { CURRICULUM_IMAGES, PRE_PULL_CLUSTER, type CurriculumImages, type PrePullCluster } from './pre-pull.port.js';
import { prePullNamespace, syncPrePull, type PrePullState } from './pre-pull.sync.js';

/**
 * Keeps the pre-pull DaemonSet (`scheduler.prePull`) in step with the curriculum: once the scheduler is
 * ready, then every `resyncSeconds` — an import (api start-up, `antictl curriculum import`) writes only
 * the database, which has no watch, so a changed image set is seen at the next pass. Each pass logs a
 * change and exports the DaemonSet's desired and ready node counts. Off: nothing is created, nothing
 * left behind is touched.
 */
@Injectable()
export class PrePullKeeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PrePull');
  private readonly stopping = new AbortController();
  private timer?: NodeJS.Timeout;
  private last?: string;
  private running?: Promise<PrePullState | undefined>;

  constructor(
    @Inject(PRE_PULL_CLUSTER) private readonly cluster: PrePullCluster,
    @Inject(CURRICULUM_IMAGES) private readonly curriculum: CurriculumImages,
    @Inject(SchedulerMetrics) private readonly metrics: SchedulerMetrics,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.scheduler.prePull.enabled) return;
    void this.start();
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
    clearInterval(this.timer);
  }

  /** One pass now (a pass already running is joined); undefined when it failed (logged; the next pass tries again). */
  sync(): Promise<PrePullState | undefined> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async start(): Promise<void> {
    try {
      await this.readiness.waitUntilReady(undefined, 250, this.stopping.signal);
    } catch {
      return;
    }
    await this.sync();
    this.timer = setInterval(() => void this.sync(), this.config.scheduler.prePull.resyncSeconds * 1000);
  }

  private async pass(): Promise<PrePullState | undefined> {
    try {
      const state = await syncPrePull(this.config, this.curriculum, this.cluster, this.stopping.signal);
      this.report(state);
      return state;
    } catch (error) {
      if (!this.stopping.signal.aborted)
        this.logger.warn(
          `pre-pull DaemonSet in namespace ${prePullNamespace(this.config)} not synced: ${reasonOf(error)}; trying again in ${this.config.scheduler.prePull.resyncSeconds}s`,
        );
      return undefined;
    }
  }

  private report(state: PrePullState): void {
    this.metrics.prePullImages.set(state.images);
    this.metrics.prePullNodes.set({ state: 'desired' }, state.desired ?? 0);
    this.metrics.prePullNodes.set({ state: 'ready' }, state.ready ?? 0);
    const line = state.name
      ? `pre-pull DaemonSet ${state.namespace}/${state.name}: ${state.outcome}, ${state.images} images, ready on ${state.ready}/${state.desired} nodes`
      : 'pre-pull: no curriculum imported yet';
    if (state.outcome !== 'unchanged' || line !== this.last) this.logger.log(line);
    this.last = line;
  }
}
