import { Inject, Injectable } from '@nestjs/common';
import { MetricsService } from '@antidote/runtime';
import type { PhaseTimes } from '@antidote/contracts';

const seconds = (from?: string, to?: string): number | undefined => (from && to ? (new Date(to).getTime() - new Date(from).getTime()) / 1000 : undefined);

/** What the scheduler exposes on /metrics. */
@Injectable()
export class SchedulerMetrics {
  readonly timeToReady;
  readonly phaseDuration;
  readonly inFlight;
  readonly queued;
  readonly failures;
  readonly prePullImages;
  readonly prePullNodes;
  readonly poolMembers;
  readonly poolTarget;
  readonly poolRetired;
  readonly poolRefill;

  constructor(@Inject(MetricsService) metrics: MetricsService) {
    const buckets = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600];
    this.timeToReady = metrics.histogram({ name: 'antidote_time_to_ready_seconds', help: 'From request to READY', labelNames: ['lesson'], buckets });
    this.phaseDuration = metrics.histogram({
      name: 'antidote_phase_duration_seconds',
      help: 'Time spent in each provisioning phase (objects: INITIALIZED→BOOTING, boot: BOOTING→CONFIGURATION, configuration: CONFIGURATION→READY)',
      labelNames: ['phase'],
      buckets,
    });
    this.inFlight = metrics.gauge({ name: 'antidote_provisioning_in_flight', help: 'Live lesson operations running now' });
    this.queued = metrics.gauge({ name: 'antidote_provisioning_queued', help: 'Live lesson operations waiting for a slot' });
    this.prePullImages = metrics.gauge({ name: 'antidote_prepull_images', help: 'Images the pre-pull DaemonSet pulls onto every node' });
    this.prePullNodes = metrics.gauge({
      name: 'antidote_prepull_nodes',
      help: 'Nodes of the pre-pull DaemonSet: desired (should run it), ready (every image pulled)',
      labelNames: ['state'],
    });
    this.failures = metrics.counter({
      name: 'antidote_live_lesson_failures_total',
      help: 'Failed live lessons, by the status they failed in',
      labelNames: ['status'],
    });
    this.poolMembers = metrics.gauge({
      name: 'antidote_pool_members',
      help: 'Unclaimed warm-pool members, READY or still building',
      labelNames: ['lesson', 'state'],
    });
    this.poolTarget = metrics.gauge({
      name: 'antidote_pool_target_members',
      help: "The size the scheduler keeps each warm pool at now (fixed, an operator's, or chosen from demand for adaptive pools)",
      labelNames: ['lesson'],
    });
    this.poolRetired = metrics.counter({
      name: 'antidote_pool_retired_total',
      help: 'Warm-pool members retired unclaimed (max-age, failed, stale, surplus, unconfigured)',
      labelNames: ['lesson', 'reason'],
    });
    this.poolRefill = metrics.histogram({
      name: 'antidote_pool_refill_seconds',
      help: "From a warm-pool member's row to READY",
      labelNames: ['lesson'],
      buckets,
    });
  }

  /** A warm-pool member just became READY: its build time is refill time, not a learner's wait. */
  observeRefill(lesson: string, times: PhaseTimes): void {
    const total = seconds(times.initializedAt, times.readyAt);
    if (total !== undefined) this.poolRefill.observe({ lesson }, total);
  }

  /** Records the phase durations of a live lesson that just became READY. */
  observeReady(lesson: string, times: PhaseTimes): void {
    const total = seconds(times.initializedAt, times.readyAt);
    if (total !== undefined) this.timeToReady.observe({ lesson }, total);
    const phases: [string, number | undefined][] = [
      ['objects', seconds(times.initializedAt, times.bootingAt)],
      ['boot', seconds(times.bootingAt, times.configurationAt)],
      ['configuration', seconds(times.configurationAt, times.readyAt)],
    ];
    for (const [phase, value] of phases) if (value !== undefined && value >= 0) this.phaseDuration.observe({ phase }, value);
  }
}
