import { describe, expect, it } from 'vitest';
import { microTime } from './kube-lease.store.js';
import { LeaderElector } from './leader-elector.js';
import { LeaseConflictError, type LeaseRecord, type LeaseStore } from './lease-store.port.js';

/** An in-memory Lease with real compare-and-swap semantics. */
class MemoryLeaseStore implements LeaseStore {
  lease?: LeaseRecord;
  private version = 0;
  down = false;

  get(): Promise<LeaseRecord | undefined> {
    if (this.down) return Promise.reject(new Error('API down'));
    return Promise.resolve(this.lease && { ...this.lease });
  }
  create(lease: LeaseRecord): Promise<LeaseRecord> {
    if (this.lease) return Promise.reject(new LeaseConflictError('exists'));
    this.lease = { ...lease, resourceVersion: String(++this.version) };
    return Promise.resolve({ ...this.lease });
  }
  replace(lease: LeaseRecord): Promise<LeaseRecord> {
    if (this.down) return Promise.reject(new Error('API down'));
    if (lease.resourceVersion !== this.lease?.resourceVersion) return Promise.reject(new LeaseConflictError('stale'));
    this.lease = { ...lease, resourceVersion: String(++this.version) };
    return Promise.resolve({ ...this.lease });
  }
}

describe('LeaderElector', () => {
  it('elects one of two replicas, keeps it while it renews, and hands over when it stops', async () => {
    let clock = 0;
    const now = () => new Date(clock);
    const store = new MemoryLeaseStore();
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
    const store = new MemoryLeaseStore();
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
    const store = new MemoryLeaseStore();
    const a = new LeaderElector(store, 'a', 15, () => new Date(clock));
    await a.tick();
    store.down = true;
    clock += 5000;
    expect(await a.tick()).toBe(true);
    clock += 11_000;
    expect(await a.tick()).toBe(false);
    store.down = false;
    expect(await a.tick()).toBe(true);
    await a.release();
    const b = new LeaderElector(store, 'b', 15, () => new Date(clock));
    expect(await b.tick()).toBe(true);
  });

  it('reports a write the server refused instead of taking it for another holder; a lost race is not reported', async () => {
    const store = new MemoryLeaseStore();
    const errors: unknown[] = [];
    const refused = new Error('create leases: 400 BadRequest: Lease in version "v1" cannot be handled');
    const refusing: LeaseStore = { get: () => store.get(), create: () => Promise.reject(refused), replace: (lease) => store.replace(lease) };
    expect(await new LeaderElector(refusing, 'a', 15, () => new Date(0), (error) => errors.push(error)).tick()).toBe(false);
    expect(errors).toEqual([refused]);
    await new LeaderElector(store, 'b', 15, () => new Date(0)).tick();
    const racing: LeaseStore = { get: () => Promise.resolve(undefined), create: (lease) => store.create(lease), replace: (lease) => store.replace(lease) };
    expect(await new LeaderElector(racing, 'c', 15, () => new Date(0), (error) => errors.push(error)).tick()).toBe(false);
    expect(errors).toHaveLength(1);
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
