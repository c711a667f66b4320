import { Inject, Injectable } from '@nestjs/common';
import { MetricsService } from '@antidote/runtime';
import type { EndpointHealth } from '@antidote/contracts';
import { readinessMatches } from './readiness/safe-match.js';

@Injectable()
export class HealthMetrics {
  private readonly latency;
  private readonly verdicts;

  constructor(@Inject(MetricsService) metrics: MetricsService) {
    this.latency = metrics.histogram({
      name: 'antidote_probe_latency_seconds',
      help: 'Probe duration by kind',
      labelNames: ['kind'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5],
    });
    this.verdicts = metrics.counter({ name: 'antidote_probe_verdicts_total', help: 'Probe verdicts by kind', labelNames: ['kind', 'verdict'] });
    metrics.gauge({
      name: 'antidote_readiness_matches_running',
      help: 'Readiness pattern matches running now, each on a worker thread (never the event loop)',
      collect() {
        this.set(readinessMatches.running);
      },
    });
  }

  observe(health: EndpointHealth): void {
    for (const probe of health.probes) {
      this.latency.observe({ kind: probe.kind }, probe.latencyMs / 1000);
      this.verdicts.inc({ kind: probe.kind, verdict: probe.verdict });
    }
  }
}
