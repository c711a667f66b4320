import { parseConfig } from '@antidote/config';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ClaimKeeper, replicaNameOf } from './claim-keeper.js';

type Kept = Map<string, { deleteRequested: boolean }>;

/** A ClaimKeeper over a stand-in for the repository's renewAll, whose next answer each test sets. */
function keeper(answer: (ids: readonly string[]) => Promise<Kept>) {
  const calls: string[][] = [];
  const events = { deletions: [] as string[], failures: [] as unknown[] };
  const claims = new ClaimKeeper({ renewAll: (_owner, ids) => (calls.push([...ids]), answer(ids)) }, 'replica-a', 6000, {
    deletionRequested: (id) => events.deletions.push(id),
    renewFailed: (error) => events.failures.push(error),
  });
  return { claims, calls, events };
}
const kept = (...ids: string[]): Kept => new Map(ids.map((id) => [id, { deleteRequested: false }]));

describe('ClaimKeeper', () => {
  it('renews every held claim in one call per heartbeat, every fifth of the lease', async () => {
    const { claims, calls } = keeper((ids) => Promise.resolve(kept(...ids)));
    expect(claims.heartbeatMs).toBe(1200);
    await claims.beat();
    expect(calls).toEqual([]);
    claims.hold('one', 'create');
    claims.hold('two', 'delete');
    await claims.beat();
    claims.drop('two');
    await claims.beat();
    expect(calls).toEqual([['one', 'two'], ['one']]);
  });

  it('aborts the operation of a claim the heartbeat did not keep, and reports a deletion requested for a create', async () => {
    const { claims, events } = keeper(() =>
      Promise.resolve(
        new Map([
          ['asked', { deleteRequested: true }],
          ['deleting', { deleteRequested: true }],
        ]),
      ),
    );
    const lost = claims.hold('taken-over', 'create');
    const asked = claims.hold('asked', 'create');
    claims.hold('deleting', 'delete');
    await claims.beat();
    expect(lost.aborted).toBe(true);
    expect(String(lost.reason)).toMatch(/another scheduler took the live lesson over/);
    expect(claims.holds('taken-over')).toBe(false);
    expect(asked.aborted).toBe(false);
    expect(events.deletions).toEqual(['asked']);
  });

  it('judges only the claims it sent: one held again meanwhile is not lost', async () => {
    let answer: (value: Kept) => void = () => undefined;
    const { claims } = keeper(() => new Promise((resolve) => (answer = resolve)));
    claims.hold('again', 'create');
    const beat = claims.beat();
    const newer = claims.hold('again', 'modify');
    answer(kept());
    await beat;
    expect(newer.aborted).toBe(false);
    expect(claims.holds('again')).toBe(true);
  });

  it('keeps its claims when the database does not answer (a lapse is for another heartbeat to find)', async () => {
    const { claims, events } = keeper(() => Promise.reject(new Error('ECONNREFUSED')));
    const signal = claims.hold('one', 'create');
    await claims.beat();
    expect(signal.aborted).toBe(false);
    expect(events.failures).toHaveLength(1);
  });
});

describe('replicaNameOf', () => {
  const config = (extra: Record<string, unknown>) => parseConfig({ instanceId: 'x', curriculumDir: '/c', ...extra }).config;

  it('is scheduler.replicaName when set, the pod (host) name in a cluster, and unique per process elsewhere', () => {
    expect(replicaNameOf(config({ scheduler: { replicaName: 'scheduler-0' } }))).toBe('scheduler-0');
    expect(replicaNameOf(config({ k8sInCluster: true }))).toBe(hostname());
    const local = config({ k8sInCluster: false });
    expect(replicaNameOf(local)).toMatch(new RegExp(`^${hostname()}-${process.pid}-[0-9a-f]{6}$`));
    expect(replicaNameOf(local)).not.toBe(replicaNameOf(local));
  });
});
