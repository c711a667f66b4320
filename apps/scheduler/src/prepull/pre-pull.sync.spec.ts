import { parseConfig } from '@antidote/config';
import { PRE_PULL_SPEC_ANNOTATION } from '@antidote/lesson-objects';
import type { V1DaemonSet } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { PrePullCluster } from './pre-pull.port.js';
import { prePullNamespace, syncPrePull } from './pre-pull.sync.js';

const config = parseConfig({ instanceId: 'unit', curriculumDir: '/curriculum', secretsNamespace: 'platform' }).config;

/** A cluster holding at most one DaemonSet, recording each write. */
function fakeCluster(initial?: V1DaemonSet) {
  let stored = initial;
  const writes: string[] = [];
  const cluster: PrePullCluster = {
    read: () => Promise.resolve(stored),
    create: (set) => {
      writes.push('create');
      stored = {
        ...set,
        metadata: { ...set.metadata, resourceVersion: '1' },
        status: { desiredNumberScheduled: 2, numberReady: 1, currentNumberScheduled: 2, numberMisscheduled: 0 },
      };
      return Promise.resolve(stored);
    },
    replace: (set) => {
      writes.push(`replace@${set.metadata?.resourceVersion}`);
      stored = { ...set, status: stored?.status };
      return Promise.resolve(stored);
    },
  };
  return { cluster, writes, stored: () => stored };
}

const images = (slugs: string[]) => ({ slugs: () => Promise.resolve(slugs) });
const pulled = (set: V1DaemonSet | undefined) => set?.spec?.template.spec?.initContainers?.slice(1).map((container) => container.image);

describe('syncPrePull', () => {
  it('puts the DaemonSet in the platform namespace unless one is configured', () => {
    expect(prePullNamespace(config)).toBe('platform');
    expect(prePullNamespace({ ...config, scheduler: { ...config.scheduler, prePull: { ...config.scheduler.prePull, namespace: 'pulls' } } })).toBe('pulls');
  });

  it('does nothing before a curriculum is imported', async () => {
    const fake = fakeCluster();
    expect(await syncPrePull(config, images([]), fake.cluster)).toEqual({ outcome: 'no-curriculum', namespace: 'platform', images: 0 });
    expect(fake.writes).toEqual([]);
  });

  it.each([
    { case: 'no DaemonSet yet: created', first: undefined, slugs: ['utility', 'vqfx'], outcome: 'created', writes: ['create'] },
    { case: 'same images: left alone', first: ['utility', 'vqfx'], slugs: ['vqfx', 'utility'], outcome: 'unchanged', writes: [] },
    {
      case: 'an image added: updated in place with its resourceVersion',
      first: ['utility'],
      slugs: ['utility', 'vqfx'],
      outcome: 'updated',
      writes: ['replace@1'],
    },
    { case: 'an image removed: updated', first: ['utility', 'vqfx'], slugs: ['utility'], outcome: 'updated', writes: ['replace@1'] },
  ])('$case', async ({ first, slugs, outcome, writes }) => {
    const fake = fakeCluster();
    if (first) await syncPrePull(config, images(first), fake.cluster);
    fake.writes.length = 0;
    const state = await syncPrePull(config, images(slugs), fake.cluster);
    expect(state).toMatchObject({ outcome, namespace: 'platform', name: 'antidote-prepull-unit', desired: 2, ready: 1 });
    expect(fake.writes).toEqual(writes);
    const wanted = [...slugs.map((slug) => `antidotelabs/${slug}:latest`), config.images.copier, config.images.configurator].sort();
    expect(pulled(fake.stored())).toEqual([...new Set(wanted)]);
  });

  it('replaces a DaemonSet whose digest differs (changed by hand or by an older scheduler)', async () => {
    const fake = fakeCluster();
    await syncPrePull(config, images(['utility']), fake.cluster);
    fake.stored()!.metadata!.annotations![PRE_PULL_SPEC_ANNOTATION] = 'stale';
    expect((await syncPrePull(config, images(['utility']), fake.cluster)).outcome).toBe('updated');
  });
});
