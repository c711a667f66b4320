import { parseConfig } from '@antidote/config';
import { MetricsService, ReadinessRegistry } from '@antidote/runtime';
import type { V1DaemonSet } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { SchedulerMetrics } from '../scheduler.metrics.js';
import { PrePullKeeper } from './pre-pull.keeper.js';
import type { PrePullCluster } from './pre-pull.port.js';

const config = parseConfig({ instanceId: 'unit', curriculumDir: '/curriculum' }).config;

function keeper(cluster: PrePullCluster) {
  const metrics = new MetricsService('scheduler-unit');
  const subject = new PrePullKeeper(cluster, { slugs: () => Promise.resolve(['utility']) }, new SchedulerMetrics(metrics), new ReadinessRegistry(), config);
  return { subject, text: () => metrics.registry.metrics() };
}

describe('PrePullKeeper', () => {
  it('exports the DaemonSet’s desired and ready nodes and its image count after a pass', async () => {
    const ready = (set: V1DaemonSet): V1DaemonSet => ({
      ...set,
      status: { desiredNumberScheduled: 3, numberReady: 2, currentNumberScheduled: 3, numberMisscheduled: 0 },
    });
    const { subject, text } = keeper({
      read: () => Promise.resolve(undefined),
      create: (set) => Promise.resolve(ready(set)),
      replace: (set) => Promise.resolve(set),
    });
    expect(await subject.sync()).toMatchObject({ outcome: 'created', desired: 3, ready: 2, images: 3 });
    const exposition = await text();
    expect(exposition).toMatch(/antidote_prepull_nodes\{[^}]*state="desired"[^}]*\} 3/);
    expect(exposition).toMatch(/antidote_prepull_nodes\{[^}]*state="ready"[^}]*\} 2/);
    expect(exposition).toMatch(/antidote_prepull_images\{[^}]*\} 3/);
  });

  it('survives a failing pass (the next one tries again) and joins a pass already running', async () => {
    let reads = 0;
    const { subject } = keeper({
      read: () => Promise.reject(new Error(`refused ${++reads}`)),
      create: (set) => Promise.resolve(set),
      replace: (set) => Promise.resolve(set),
    });
    const [first, second] = await Promise.all([subject.sync(), subject.sync()]);
    expect(first).toBeUndefined();
    expect(second).toBeUndefined();
    expect(reads).toBe(1);
    await subject.sync();
    expect(reads).toBe(2);
  });
});
