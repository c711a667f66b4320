/** The fields of a coordination.k8s.io/v1 Lease the election uses. */
export interface LeaseRecord {
  holderIdentity?: string;
  leaseDurationSeconds: number;
  acquireTime?: Date;
  renewTime?: Date;
  leaseTransitions: number;
  /** Optimistic concurrency: a replace with a stale version fails with LeaseConflictError. */
  resourceVersion?: string;
}

export class LeaseConflictError extends Error {}

export interface LeaseStore {
  get(): Promise<LeaseRecord | undefined>;
  /** Fails with LeaseConflictError when it already exists. */
  create(lease: LeaseRecord): Promise<LeaseRecord>;
  /** Fails with LeaseConflictError when the stored version moved on. */
  replace(lease: LeaseRecord): Promise<LeaseRecord>;
}

export const LEASE_STORE = Symbol.for('antidote.reaper.lease-store');
