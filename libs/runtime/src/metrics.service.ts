import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

/** The service's Prometheus registry: process metrics plus whatever the service declares. */
export class MetricsService {
  readonly registry = new Registry();

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    return this.existing(config.name) ?? new Counter({ ...config, registers: [this.registry] });
  }

  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
    return this.existing(config.name) ?? new Gauge({ ...config, registers: [this.registry] });
  }

  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    return this.existing(config.name) ?? new Histogram({ ...config, registers: [this.registry] });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  private existing<M>(name: string): M | undefined {
    return this.registry.getSingleMetric(name) as M | undefined;
  }
}
