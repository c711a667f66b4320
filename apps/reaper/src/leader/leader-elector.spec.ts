import { describe, expect, it } from 'vitest';
import { microTime } from './kube-lease.store.js';
import { LeaderElector } from './leader-elector.js';
import { FakeLeaseStore } from './lease-store.fake.js';
import { LeaseConflictError, type LeaseStore } from './lease-store.port.js';

describe('LeaderElector', () => {
  it('elects one of two replicas, keeps it while it renews, and hands over when it stops', async () => {
    let clock = 0;
    const now = () => new Date(clock);
    const store = new FakeLeaseStore();
    const a = new LeaderElector(store, 'a', 15, now);
    const b = new LeaderElector(store, 'b', 15, now);
    expect(await a.tick()).toBe(true);
    expect(await b.tick()).toBe(false);
    clock += 10_000;
    expect(await a.tick()).toBe(true);
    clock += 10_000;
    expect(await b.tick()).toBe(false);
    // a dies (no more renewals); after one lease duration b takes over.
    clock += 15_000;
    expect(await b.tick()).toBe(true);
    expect(a.isLeader).toBe(false);
    expect(store.lease).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(await a.tick()).toBe(false);
  });

  it('lets only one of two simultaneous takeovers win', async () => {
    let clock = 0;
    const store = new FakeLeaseStore();
    await new LeaderElector(store, 'old', 15, () => new Date(clock)).tick();
    clock = 100_000;
    const contenders = [new LeaderElector(store, 'x', 15, () => new Date(clock)), new LeaderElector(store, 'y', 15, () => new Date(clock))];
    const store2Get = await store.get();
    const results = await Promise.all(contenders.map((c) => c.tick()));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(store.lease?.holderIdentity).not.toBe(store2Get?.holderIdentity);
  });

  it('stays leader through a short API outage only while its lease is valid, and releases on shutdown', async () => {
    let clock = 0;
    const store = new FakeLeaseStore();
    const a = new LeaderElector(store, 'a', 15, () => new Date(clock));
    await a.tick();
    store.fail(new Error('API down'));
    clock += 5000;
    expect(await a.tick()).toBe(true);
    clock += 11_000;
    expect(await a.tick()).toBe(false);
    store.succeed();
    expect(await a.tick()).toBe(true);
    await a.release();
    const b = new LeaderElector(store, 'b', 15, () => new Date(clock));
    expect(await b.tick()).toBe(true);
  });

  it('reports a write the server refused instead of taking it for another holder; a lost race is not reported', async () => {
    const store = new FakeLeaseStore();
    const errors: unknown[] = [];
    const refused = new Error('create leases: 400 BadRequest: Lease in version "v1" cannot be handled');
    const refusing: LeaseStore = { get: () => store.get(), create: () => Promise.reject(refused), replace: (lease) => store.replace(lease) };
    expect(
      await new LeaderElector(
        refusing,
        'a',
        15,
        () => new Date(0),
        (error) => errors.push(error),
      ).tick(),
    ).toBe(false);
    expect(errors).toEqual([refused]);
    await new LeaderElector(store, 'b', 15, () => new Date(0)).tick();
    const racing: LeaseStore = { get: () => Promise.resolve(undefined), create: (lease) => store.create(lease), replace: (lease) => store.replace(lease) };
    expect(
      await new LeaderElector(
        racing,
        'c',
        15,
        () => new Date(0),
        (error) => errors.push(error),
      ).tick(),
    ).toBe(false);
    expect(errors).toHaveLength(1);
  });
});

describe('LeaderElector on the fake Lease', () => {
  const MS = 15_000;
  const elector = (store: LeaseStore, identity: string, at: () => number, errors?: unknown[]) =>
    new LeaderElector(store, identity, 15, () => new Date(at()), errors ? (error) => errors.push(error) : undefined);

  it.each([
    ['1 ms before the lease runs out', MS - 1, false, 'a'],
    ['exactly when it runs out', MS, true, 'b'],
    ['long after', 10 * MS, true, 'b'],
  ])('another replica takes an unrenewed lease %s: %s', async (_case, elapsed, takesOver, holder) => {
    let clock = 0;
    const store = new FakeLeaseStore();
    await elector(store, 'a', () => clock).tick();
    clock = elapsed;
    expect(await elector(store, 'b', () => clock).tick()).toBe(takesOver);
    expect(store.lease).toMatchObject({ holderIdentity: holder, leaseTransitions: takesOver ? 1 : 0 });
  });

  it('takes a released lease (empty holder) at once, and counts the transition', async () => {
    const store = new FakeLeaseStore();
    const a = elector(store, 'a', () => 0);
    await a.tick();
    await a.release();
    expect(store.lease?.holderIdentity).toBe('');
    expect(await elector(store, 'b', () => 1).tick()).toBe(true);
    expect(store.lease).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('renews its own lease in place (no transition) and keeps acquireTime', async () => {
    let clock = 0;
    const store = new FakeLeaseStore();
    const a = elector(store, 'a', () => clock);
    await a.tick();
    clock = 10_000;
    await a.tick();
    expect(store.writes).toEqual(['create a', 'replace a']);
    expect(store.lease).toMatchObject({ holderIdentity: 'a', leaseTransitions: 0, acquireTime: new Date(0), renewTime: new Date(10_000) });
  });

  it('reports every failed renewal and stops leading once its lease ran out', async () => {
    let clock = 0;
    const store = new FakeLeaseStore();
    const errors: unknown[] = [];
    const a = elector(store, 'a', () => clock, errors);
    await a.tick();
    const refused = new Error('422 Unprocessable');
    store.fail(refused);
    const leading: boolean[] = [];
    for (const at of [5000, 14_999, 15_000]) {
      clock = at;
      leading.push(await a.tick());
    }
    expect(leading).toEqual([true, true, false]);
    expect(errors).toEqual([refused, refused, refused]);
    expect(a.isLeader).toBe(false);
  });

  it('loses the lease without an error when another replica wrote it first (a conflict)', async () => {
    const store = new FakeLeaseStore();
    const errors: unknown[] = [];
    const a = elector(store, 'a', () => 0, errors);
    await a.tick();
    const stale: LeaseStore = {
      get: () => store.get(),
      create: (lease) => store.create(lease),
      replace: () => Promise.reject(new LeaseConflictError('modified')),
    };
    expect(await elector(stale, 'a', () => 1000, errors).tick()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('release writes nothing when it does not lead, and reports a release the server refused', async () => {
    const store = new FakeLeaseStore();
    const errors: unknown[] = [];
    await elector(store, 'a', () => 0).tick();
    const b = elector(store, 'b', () => 1000, errors);
    expect(await b.tick()).toBe(false);
    await b.release();
    expect(store.writes).toEqual(['create a']);
    const other = new FakeLeaseStore();
    const c = elector(other, 'c', () => 0, errors);
    await c.tick();
    const down = new Error('API down');
    other.fail(down);
    await c.release();
    expect(errors).toEqual([down]);
    expect(c.isLeader).toBe(false);
  });
});

describe('microTime', () => {
  it.each([
    ['2026-12-03T10:00:00.123Z', '2026-12-03T10:00:00.123000Z'],
    ['2026-12-03T10:00:00.000Z', '2026-12-03T10:00:00.000000Z'],
    ['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000000Z'],
  ])('writes %s with exactly 6 fractional digits', (iso, expected) => {
    expect((JSON.parse(JSON.stringify({ at: microTime(new Date(iso)) })) as { at: string }).at).toBe(expected);
  });
});
