import { LeaseConflictError, type LeaseRecord, type LeaseStore } from './lease-store.port.js';

/**
 * An in-memory Lease with the API server's compare-and-swap semantics: create fails when it exists,
 * replace fails with LeaseConflictError on a stale resourceVersion. `fail` makes every call fail
 * (an outage, or a write the server refuses) until `succeed`.
 */
export class FakeLeaseStore implements LeaseStore {
  lease?: LeaseRecord;
  /** Every write that reached the store, in order (`create a`, `replace b`). */
  readonly writes: string[] = [];
  private version = 0;
  private failure?: Error;

  fail(error: Error): void {
    this.failure = error;
  }

  succeed(): void {
    this.failure = undefined;
  }

  get(): Promise<LeaseRecord | undefined> {
    if (this.failure) return Promise.reject(this.failure);
    return Promise.resolve(this.lease && { ...this.lease });
  }

  create(lease: LeaseRecord): Promise<LeaseRecord> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.lease) return Promise.reject(new LeaseConflictError('the Lease already exists'));
    return Promise.resolve(this.store('create', lease));
  }

  replace(lease: LeaseRecord): Promise<LeaseRecord> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.lease || lease.resourceVersion !== this.lease.resourceVersion) return Promise.reject(new LeaseConflictError('the Lease was modified'));
    return Promise.resolve(this.store('replace', lease));
  }

  private store(write: string, lease: LeaseRecord): LeaseRecord {
    this.writes.push(`${write} ${lease.holderIdentity ?? ''}`);
    this.lease = { ...lease, resourceVersion: String(++this.version) };
    return { ...this.lease };
  }
}
