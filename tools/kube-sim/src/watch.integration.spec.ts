import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startSim, until, type SimFixture } from '../test/sim-fixture.js';

interface Seen {
  type: string;
  name?: string;
  phase?: string;
  code?: number;
}

function watchPods(
  fixture: SimFixture,
  namespace: string,
  resourceVersion: string | undefined,
  seen: Seen[],
  onDone: (error?: unknown) => void,
): Promise<AbortController> {
  return new k8s.Watch(fixture.config).watch(
    `/api/v1/namespaces/${namespace}/pods`,
    resourceVersion ? { resourceVersion } : {},
    (type: string, object: k8s.V1Pod & { code?: number }) => seen.push({ type, name: object.metadata?.name, phase: object.status?.phase, code: object.code }),
    (error?: unknown) => onDone(error),
  );
}

describe('watch', () => {
  let fixture: SimFixture;
  beforeAll(async () => {
    fixture = await startSim();
    await fixture.core.createNamespace({ body: { metadata: { name: 'w' } } });
  });
  afterAll(() => fixture?.sim.stop());

  it('sends the current state, then every change, in order', async () => {
    await fixture.core.createNamespacedPod({ namespace: 'w', body: pod('before') });
    const seen: Seen[] = [];
    const controller = await watchPods(fixture, 'w', undefined, seen, () => undefined);
    await fixture.core.createNamespacedPod({ namespace: 'w', body: pod('after') });
    await until(() => seen.some((event) => event.name === 'after' && event.phase === 'Running'));
    await fixture.core.deleteNamespacedPod({ name: 'after', namespace: 'w' });
    await until(() => seen.some((event) => event.type === 'DELETED' && event.name === 'after'));
    expect(seen[0]).toMatchObject({ type: 'ADDED', name: 'before' });
    const types = seen.filter((event) => event.name === 'after').map((event) => event.type);
    expect(types[0]).toBe('ADDED');
    expect(types[types.length - 1]).toBe('DELETED');
    expect(seen.some((event) => event.name === 'after' && event.type === 'MODIFIED' && event.phase === 'Running')).toBe(true);
    controller.abort();
  });

  it('resumes from a resourceVersion without losing or repeating events', async () => {
    const list = await fixture.core.listNamespacedPod({ namespace: 'w' });
    const version = list.metadata!.resourceVersion!;
    await fixture.core.createNamespacedPod({ namespace: 'w', body: pod('missed-while-away') });
    const seen: Seen[] = [];
    const controller = await watchPods(fixture, 'w', version, seen, () => undefined);
    await until(() => seen.some((event) => event.name === 'missed-while-away'));
    expect(seen.some((event) => event.name === 'before')).toBe(false);
    controller.abort();
  });

  it('answers a resume from a compacted version with 410 Expired', async () => {
    const list = await fixture.core.listNamespacedPod({ namespace: 'w' });
    await fixture.core.createNamespacedPod({ namespace: 'w', body: pod('after-compaction') });
    fixture.sim.compactHistory();
    const seen: Seen[] = [];
    let ended = false;
    await watchPods(fixture, 'w', list.metadata!.resourceVersion, seen, () => (ended = true));
    await until(() => ended);
    expect(seen).toEqual([expect.objectContaining({ type: 'ERROR', code: 410 })]);
  });

  it('drops open watches on demand, so clients must reconnect', async () => {
    const seen: Seen[] = [];
    let ended = false;
    await watchPods(fixture, 'w', undefined, seen, () => (ended = true));
    await until(() => seen.length > 0);
    expect(fixture.sim.dropWatches()).toBeGreaterThanOrEqual(1);
    await until(() => ended);
  });
});
