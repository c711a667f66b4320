import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { LiveLessonStatus } from '@antidote/contracts';
import { DataManager, type LiveLesson } from '@antidote/data';
import { BusClient } from '@antidote/messaging';
import { namespaceName } from '@antidote/lesson-objects';
import { ReadinessRegistry } from '@antidote/runtime';
import { LESSON_CLUSTER, type LessonCluster } from '../cluster/lesson-cluster.port.js';
import { reasonOf } from '../lesson/lesson-failure.error.js';
import { ModifyLessonOperation } from '../lesson/modify-lesson.operation.js';
import { StatusReporter } from '../lesson/status-reporter.js';
import { LessonScheduler } from '../lesson-scheduler.service.js';

const REDRIVE_BATCH = 200;
/** How often lapsed claims are looked for: a dead replica's work moves within its lease plus this. */
const TAKEOVER_SWEEP_MS = 1000;

/**
 * Start-up reconciliation instead of the original's "delete everything": namespaces whose live lesson
 * exists are adopted, namespaces with no record are deleted, provisioned records whose namespace is
 * gone are marked failed, and interrupted work resumes (this replica's own claims at once). Then:
 * every second, work whose claim lapsed (its replica died) is taken over; when the NATS connection comes
 * back, everything that needs work is driven again (requests accepted while it was down); and
 * periodically, accepted requests that no message reached are driven again from the database.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Reconciler');
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly stopping = new AbortController();
  private stopListening = (): void => undefined;
  private starting: Promise<void> = Promise.resolve();

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(LESSON_CLUSTER) private readonly cluster: LessonCluster,
    @Inject(LessonScheduler) private readonly scheduler: Pick<LessonScheduler, 'owner' | 'submit' | 'pending'>,
    @Inject(StatusReporter) private readonly status: StatusReporter,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @InjectConfig() private readonly config: AntidoteConfig,
    @Inject(BusClient) private readonly bus: Pick<BusClient, 'onReconnect'>,
  ) {}

  onApplicationBootstrap(): void {
    this.starting = this.start();
  }

  /** Settles once the start-up reconciliation has run and the sweeps are on. */
  started(): Promise<void> {
    return this.starting;
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
    this.stopListening();
    for (const timer of this.timers) clearInterval(timer);
  }

  private async start(): Promise<void> {
    try {
      await this.readiness.waitUntilReady(undefined, 250, this.stopping.signal);
      await this.reconcile();
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      this.logger.error(`start-up reconciliation failed: ${reasonOf(error)}; the periodic re-drive carries on`);
    }
    if (this.stopping.signal.aborted) return;
    const { redriveIntervalSeconds, redriveAfterSeconds } = this.config.scheduler;
    this.every(redriveIntervalSeconds * 1000, () => this.redrive(new Date(Date.now() - redriveAfterSeconds * 1000)));
    this.every(TAKEOVER_SWEEP_MS, () => this.redrive());
    this.stopListening = this.bus.onReconnect(() => void this.guarded(() => this.redrive(new Date(), 'the NATS connection is back')));
  }

  /** Runs `sweep` every `ms`, never two at once (a slow database never stacks them up). */
  private every(ms: number, sweep: () => Promise<unknown>): void {
    let running = false;
    const tick = async (): Promise<void> => {
      if (running) return;
      running = true;
      await this.guarded(sweep).finally(() => (running = false));
    };
    this.timers.push(setInterval(() => void tick(), ms));
  }

  private async guarded(sweep: () => Promise<unknown>): Promise<void> {
    await sweep().catch((error: unknown) => this.logger.warn(`re-drive failed: ${reasonOf(error)}`));
  }

  async reconcile(): Promise<void> {
    const namespaces = await this.cluster.listManagedNamespaces();
    const byName = new Set(namespaces.map((namespace) => namespace.name));
    let orphans = 0;
    for (const namespace of namespaces) {
      if (!namespace.liveLessonId || namespace.terminating) continue;
      if (await this.data.liveLessons.exists(namespace.liveLessonId)) continue;
      orphans++;
      void this.cluster
        .deleteNamespace(namespace.name, this.config.timeouts.namespaceDeleteSeconds * 1000, this.stopping.signal)
        .catch((error: unknown) => this.logger.warn(`could not delete orphan namespace ${namespace.name}: ${reasonOf(error)}`));
    }
    let lost = 0;
    const now = Date.now();
    for (const lesson of await this.data.liveLessons.list({ error: false })) {
      if (lesson.status === LiveLessonStatus.INITIALIZED || lesson.deleteRequestedAt) continue;
      if (lesson.claimedBy && lesson.claimedBy !== this.scheduler.owner && (lesson.claimedUntil?.getTime() ?? 0) > now) continue;
      if (byName.has(namespaceName(this.config.instanceId, lesson.id))) continue;
      lost++;
      await this.status.fail(lesson.id, `Namespace ${namespaceName(this.config.instanceId, lesson.id)} disappeared`);
    }
    const resumed = await this.redrive(new Date());
    this.logger.log(
      `reconciled: ${namespaces.length} managed namespaces, ${orphans} orphans deleted, ${lost} records without namespace failed, ${resumed} operations resumed`,
    );
  }

  /**
   * Live lessons that need work and nobody works on — their holder's claim lapsed, this replica held them
   * before a restart, or (with `unclaimedBefore`) nobody claimed them since then: submits them, each with
   * the reason it is driven again (duplicates coalesce; a claim decides who works).
   */
  async redrive(unclaimedBefore?: Date, why?: string): Promise<number> {
    const due = await this.data.work.findNeedingWork({ owner: this.scheduler.owner, unclaimedBefore, limit: REDRIVE_BATCH });
    let submitted = 0;
    for (const lesson of due) {
      if (this.scheduler.pending(lesson.id).length > 0) continue;
      const kind = lesson.deleteRequestedAt ? 'delete' : ModifyLessonOperation.isPending(lesson) ? 'modify' : 'create';
      this.scheduler.submit(kind, lesson.id, 're-driven', why ?? this.reasonFor(lesson));
      submitted++;
    }
    return submitted;
  }

  private reasonFor(lesson: LiveLesson): string {
    if (lesson.claimedBy === this.scheduler.owner) return 'claimed by this replica before it restarted';
    if (lesson.claimedBy) return `the claim of ${lesson.claimedBy} lapsed at ${lesson.claimedUntil?.toISOString() ?? 'an unknown time'}`;
    return `unclaimed, no change since ${lesson.updatedAt.toISOString()}`;
  }
}
