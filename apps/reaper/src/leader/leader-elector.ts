import { LeaseConflictError, type LeaseRecord, type LeaseStore } from './lease-store.port.js';

/**
 * Leader election over one Lease: the holder renews it; anyone may take it once `renewTime +
 * leaseDurationSeconds` has passed; every write is a compare-and-swap on resourceVersion, so two
 * replicas can never both believe they lead for longer than one lease duration.
 */
export class LeaderElector {
  private lease?: LeaseRecord;
  private leading = false;

  constructor(
    private readonly store: LeaseStore,
    readonly identity: string,
    private readonly durationSeconds: number,
    private readonly now: () => Date = () => new Date(),
    /** Told of every failed election step that is not a lost race (API down, a write the server refused). */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  get isLeader(): boolean {
    return this.leading && this.lease !== undefined && this.validUntil(this.lease) > this.now().getTime();
  }

  /** One election step; returns whether this replica leads afterwards. */
  async tick(): Promise<boolean> {
    try {
      const current = await this.store.get();
      const now = this.now();
      if (!current) {
        this.lease = await this.store.create({
          holderIdentity: this.identity,
          leaseDurationSeconds: this.durationSeconds,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: 0,
        });
      } else if (current.holderIdentity === this.identity) {
        this.lease = await this.store.replace({ ...current, renewTime: now, leaseDurationSeconds: this.durationSeconds });
      } else if (!current.holderIdentity || this.validUntil(current) <= now.getTime()) {
        this.lease = await this.store.replace({
          ...current,
          holderIdentity: this.identity,
          acquireTime: now,
          renewTime: now,
          leaseDurationSeconds: this.durationSeconds,
          leaseTransitions: current.leaseTransitions + 1,
        });
      } else {
        this.leading = false;
        return false;
      }
      this.leading = true;
    } catch (error) {
      if (!(error instanceof LeaseConflictError)) {
        // Not another holder: the API is down or refused the write. Said, never taken for a lost race;
        // keep leading only while our lease is still valid (isLeader checks).
        this.onError(error);
        return this.isLeader;
      }
      this.leading = false;
    }
    return this.isLeader;
  }

  /** Gives the lease up (shutdown), so another replica takes over at once instead of after a lease duration. */
  async release(): Promise<void> {
    if (!this.leading || !this.lease) return;
    this.leading = false;
    // Not fatal (the lease runs out after one duration anyway), but said.
    await this.store.replace({ ...this.lease, holderIdentity: '', renewTime: new Date(0) }).catch((error: unknown) => this.onError(error));
  }

  private validUntil(lease: LeaseRecord): number {
    return (lease.renewTime?.getTime() ?? 0) + lease.leaseDurationSeconds * 1000;
  }
}
