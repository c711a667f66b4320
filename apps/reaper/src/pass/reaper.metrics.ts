import { Inject, Injectable } from '@nestjs/common';
import { MetricsService } from '@antidote/runtime';

@Injectable()
export class ReaperMetrics {
  readonly actions;
  readonly passDuration;
  readonly leader;

  constructor(@Inject(MetricsService) metrics: MetricsService) {
    this.actions = metrics.counter({ name: 'antidote_reaper_actions_total', help: 'Reaper actions by kind', labelNames: ['action'] });
    this.passDuration = metrics.histogram({
      name: 'antidote_reaper_pass_duration_seconds',
      help: 'Duration of a reaper pass',
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30],
    });
    this.leader = metrics.gauge({ name: 'antidote_reaper_leader', help: '1 while this replica holds the reaper lease' });
  }
}
