import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AntidoteConfig } from '@antidote/config';
import type { LiveLessonWorkRepository } from '@antidote/data';
import type { OperationKind } from './lesson-work-queue.js';

/**
 * The name a scheduler replica's claims carry: `scheduler.replicaName`, else the pod name (the host name
 * in a cluster), so that a container restarted in its pod resumes its own claims; outside a cluster, where
 * several processes share a host, a name no other process has.
 */
export function replicaNameOf(config: Pick<AntidoteConfig, 'kubernetes' | 'scheduler'>): string {
  if (config.scheduler.replicaName) return config.scheduler.replicaName;
  return config.kubernetes.inCluster ? hostname() : `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export interface ClaimEvents {
  /** Another replica requested the live lesson's deletion while this one works on something else for it. */
  deletionRequested(id: string): void;
  /** A heartbeat could not reach the database; the claims are renewed at the next one. */
  renewFailed(error: unknown): void;
}

interface Held {
  kind: OperationKind;
  lost: AbortController;
}

/**
 * The claims this replica holds, renewed together by one heartbeat (one statement) every fifth of the
 * lease, so another replica takes a dead one's work over within seconds, while a replica that stalls for
 * up to four fifths of the lease keeps its work. A claim missing from the heartbeat's answer was lost
 * (taken over after a lapse, or the row is gone): its operation is aborted.
 */
export class ClaimKeeper {
  private readonly held = new Map<string, Held>();
  private timer?: NodeJS.Timeout;
  private beating?: Promise<void>;

  constructor(
    private readonly work: Pick<LiveLessonWorkRepository, 'renewAll'>,
    readonly owner: string,
    readonly leaseMs: number,
    private readonly events: ClaimEvents,
  ) {}

  /** Every fifth of the lease (at most every 250 ms). */
  get heartbeatMs(): number {
    return Math.max(250, Math.floor(this.leaseMs / 5));
  }

  start(): void {
    this.timer ??= setInterval(() => void this.beat(), this.heartbeatMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Keeps the claim on `id` (already taken) renewed while an operation of `kind` runs; the signal fires if it is lost. */
  hold(id: string, kind: OperationKind): AbortSignal {
    const lost = new AbortController();
    this.held.set(id, { kind, lost });
    return lost.signal;
  }

  /** The operation ended: its claim is no longer renewed here (the caller releases or hands it back). */
  drop(id: string): void {
    this.held.delete(id);
  }

  holds(id: string): boolean {
    return this.held.has(id);
  }

  /** One heartbeat (one at a time: a slow database never stacks them up). */
  beat(): Promise<void> {
    this.beating ??= this.renew().finally(() => (this.beating = undefined));
    return this.beating;
  }

  private async renew(): Promise<void> {
    const sent = new Map(this.held);
    if (sent.size === 0) return;
    let kept: Map<string, { deleteRequested: boolean }>;
    try {
      kept = await this.work.renewAll(this.owner, [...sent.keys()], this.leaseMs);
    } catch (error) {
      this.events.renewFailed(error);
      return;
    }
    for (const [id, entry] of sent) {
      // Dropped meanwhile (the operation ended) or held again by a newer operation: not this heartbeat's to judge.
      if (this.held.get(id) !== entry) continue;
      const row = kept.get(id);
      if (!row) {
        this.held.delete(id);
        entry.lost.abort(new Error('claim lost: another scheduler took the live lesson over'));
      } else if (row.deleteRequested && entry.kind !== 'delete') {
        this.events.deletionRequested(id);
      }
    }
  }
}
