import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { EventSubjects, type ReaperActionEvent, type ReaperDryRunReply, type ReaperPassEvent } from '@antidote/contracts';
import { DataManager } from '@antidote/data';
import { BusClient } from '@antidote/messaging';
import { REAPER_CLUSTER, type ReaperCluster } from '../cluster/reaper-cluster.port.js';
import { PassExecutor } from './pass-executor.js';
import { PassPlanner } from './pass-planner.js';
import type { ReaperAction } from './reaper-action.js';
import { ReaperMetrics } from './reaper.metrics.js';

export const REAPER_CLOCK = Symbol.for('antidote.reaper.clock');

/** One reaper pass: plan, then (unless a dry run) act, publishing an event per action and a summary. */
@Injectable()
export class ReaperPass {
  private readonly logger = new Logger('Reaper');
  private readonly planner: PassPlanner;
  private readonly executor: PassExecutor;

  constructor(
    @Inject(DataManager) data: DataManager,
    @Inject(REAPER_CLUSTER) private readonly cluster: ReaperCluster,
    @Inject(BusClient) private readonly bus: BusClient,
    @Inject(ReaperMetrics) private readonly metrics: ReaperMetrics,
    @Inject(REAPER_CLOCK) private readonly now: () => Date,
    @InjectConfig() config: AntidoteConfig,
  ) {
    // A session holding no lab goes once idle for the shorter of the two keys (sessionIdleTTL: 1 h by default).
    const sessionTTL = Math.min(config.liveSessionTTL, config.sessionIdleTTL);
    const policy = {
      liveLessonTTLMinutes: config.liveLessonTTL,
      liveSessionTTLMinutes: sessionTTL,
      failedLiveLessonTTLMinutes: config.gc.failedLiveLessonTTL,
      orphanGraceSeconds: config.gc.orphanGraceSeconds,
      stuckTerminatingSeconds: config.gc.stuckTerminatingSeconds,
      removeStuckFinalizers: config.gc.removeStuckFinalizers,
      pageSize: config.gc.listPageSize,
    };
    this.planner = new PassPlanner(data, cluster, policy);
    this.executor = new PassExecutor(data, cluster, bus, sessionTTL);
  }

  async run(holder: string, dryRun = false): Promise<ReaperDryRunReply> {
    const startedAt = this.now();
    const callsBefore = this.cluster.callCount();
    const plan = await this.planner.plan(startedAt);
    const done: ReaperActionEvent[] = [];
    const errors = [...plan.errors];
    for (const action of plan.actions) {
      try {
        if (!dryRun && !(await this.executor.execute(action, startedAt))) continue;
        const event = this.event(action, dryRun);
        done.push(event);
        if (!dryRun) {
          this.metrics.actions.inc({ action: action.action });
          this.publish(() => this.bus.publish(EventSubjects.reaperActed, event));
        }
      } catch (error) {
        errors.push(`${action.action} ${action.target}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const counts: Record<string, number> = {};
    for (const event of done) counts[event.action] = (counts[event.action] ?? 0) + 1;
    const pass: ReaperPassEvent = {
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      dryRun,
      counts,
      skipped: plan.skipped,
      errors,
      kubeCalls: this.cluster.callCount() - callsBefore,
      holder,
    };
    if (!dryRun) {
      this.metrics.passDuration.observe(pass.durationMs / 1000);
      this.publish(() => this.bus.publish(EventSubjects.reaperPassed, pass));
      if (done.length > 0 || errors.length > 0)
        this.logger.log(`pass: ${JSON.stringify(counts)}, ${errors.length} errors, ${pass.kubeCalls} API calls, ${pass.durationMs} ms`);
      for (const error of errors) this.logger.warn(error);
    }
    return { actions: done, pass };
  }

  private event(action: ReaperAction, dryRun: boolean): ReaperActionEvent {
    return { ...action, dryRun, at: this.now().toISOString() };
  }

  private publish(send: () => void): void {
    try {
      send();
    } catch (error) {
      this.logger.warn(`could not publish a reaper event: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
