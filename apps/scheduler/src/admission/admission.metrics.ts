import { Inject, Injectable } from '@nestjs/common';
import { MetricsService } from '@antidote/runtime';

/** The waiting room on /metrics (every scheduler replica reports the same shared queue: take the max of the length). */
@Injectable()
export class AdmissionMetrics {
  readonly length;
  readonly wait;
  readonly admitted;
  readonly abandoned;

  constructor(@Inject(MetricsService) metrics: MetricsService) {
    this.length = metrics.gauge({ name: 'antidote_admission_queue_length', help: 'Requests waiting for capacity (scheduler.maxLiveLessons) now' });
    this.wait = metrics.histogram({
      name: 'antidote_admission_wait_seconds',
      help: 'From request to admission, of the requests that waited in line',
      buckets: [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600],
    });
    this.admitted = metrics.counter({ name: 'antidote_admission_admitted_total', help: 'Requests this replica admitted from the line' });
    this.abandoned = metrics.counter({
      name: 'antidote_admission_abandoned_total',
      help: 'Requests dropped from the line: nobody asked about them for scheduler.queueAbandonSeconds',
    });
  }
}
