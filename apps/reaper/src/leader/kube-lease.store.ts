import { type KubeClient, isConflict } from '@antidote/kube';
import type { Lease, MicroTime } from '@antidote/crd';
import { LeaseConflictError, type LeaseRecord, type LeaseStore } from './lease-store.port.js';

/** The election's Lease as a coordination.k8s.io/v1 object; 409s become LeaseConflictError. */
export class KubeLeaseStore implements LeaseStore {
  constructor(
    private readonly kube: KubeClient,
    private readonly namespace: string,
    private readonly name: string,
  ) {}

  async get(): Promise<LeaseRecord | undefined> {
    const lease = await this.kube.read('Lease', this.namespace, this.name);
    return lease ? recordOf(lease) : undefined;
  }

  create(lease: LeaseRecord): Promise<LeaseRecord> {
    return this.write(() => this.kube.create('Lease', this.namespace, this.toLease(lease)));
  }

  replace(lease: LeaseRecord): Promise<LeaseRecord> {
    return this.write(() => this.kube.replace('Lease', this.namespace, this.toLease(lease)));
  }

  private async write(send: () => Promise<Lease>): Promise<LeaseRecord> {
    try {
      return recordOf(await send());
    } catch (error) {
      if (isConflict(error)) throw new LeaseConflictError(`lease ${this.namespace}/${this.name} changed meanwhile`, { cause: error });
      throw error;
    }
  }

  private toLease(lease: LeaseRecord): Lease {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.name, namespace: this.namespace, ...(lease.resourceVersion ? { resourceVersion: lease.resourceVersion } : {}) },
      spec: {
        ...(lease.holderIdentity ? { holderIdentity: lease.holderIdentity } : {}),
        leaseDurationSeconds: lease.leaseDurationSeconds,
        ...(lease.acquireTime ? { acquireTime: microTime(lease.acquireTime) } : {}),
        ...(lease.renewTime ? { renewTime: microTime(lease.renewTime) } : {}),
        leaseTransitions: lease.leaseTransitions,
      },
    };
  }
}

/**
 * acquireTime/renewTime are MicroTime: a real API server accepts exactly 6 fractional digits and answers
 * 400 to what Date.toISOString() gives (3).
 */
export const microTime = (date: Date): MicroTime => date.toISOString().replace(/Z$/, '000Z');

function recordOf(lease: Lease): LeaseRecord {
  const spec = lease.spec ?? {};
  const time = (value: unknown): Date | undefined => (value ? new Date(value as string) : undefined);
  const acquireTime = time(spec.acquireTime);
  const renewTime = time(spec.renewTime);
  return {
    ...(spec.holderIdentity ? { holderIdentity: spec.holderIdentity } : {}),
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 15,
    ...(acquireTime ? { acquireTime } : {}),
    ...(renewTime ? { renewTime } : {}),
    leaseTransitions: spec.leaseTransitions ?? 0,
    ...(lease.metadata?.resourceVersion ? { resourceVersion: lease.metadata.resourceVersion } : {}),
  };
}
