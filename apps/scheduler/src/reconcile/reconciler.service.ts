import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { LiveLessonStatus } from '@antidote/contracts';
import { DataManager } from '@antidote/data';
import { namespaceName } from '@antidote/lesson-objects';
import { ReadinessRegistry } from '@antidote/runtime';
import { LESSON_CLUSTER, type LessonCluster } from '../cluster/lesson-cluster.port.js';
import { reasonOf } from '../lesson/lesson-failure.error.js';
import { ModifyLessonOperation } from '../lesson/modify-lesson.operation.js';
import { StatusReporter } from '../lesson/status-reporter.js';
import { LessonScheduler } from '../lesson-scheduler.service.js';

const REDRIVE_BATCH = 200;

/**
 * Start-up reconciliation instead of the original's "delete everything": namespaces whose live lesson
 * exists are adopted, namespaces with no record are deleted, provisioned records whose namespace is
 * gone are marked failed, and interrupted work resumes. Then, periodically, accepted requests that no
 * message reached (NATS or every scheduler down) are driven again from the database.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Reconciler');
  private timer?: NodeJS.Timeout;
  private readonly stopping = new AbortController();

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(LESSON_CLUSTER) private readonly cluster: LessonCluster,
    @Inject(LessonScheduler) private readonly scheduler: Pick<LessonScheduler, 'owner' | 'submit'>,
    @Inject(StatusReporter) private readonly status: StatusReporter,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  onApplicationBootstrap(): void {
    void this.start();
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
    clearInterval(this.timer);
  }

  private async start(): Promise<void> {
    try {
      await this.readiness.waitUntilReady(undefined, 250, this.stopping.signal);
      await this.reconcile();
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      this.logger.error(`start-up reconciliation failed: ${reasonOf(error)}; the periodic re-drive carries on`);
    }
    this.timer = setInterval(() => void this.redrive().catch((error: unknown) => this.logger.warn(`re-drive failed: ${reasonOf(error)}`)), this.config.scheduler.redriveIntervalSeconds * 1000);
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
    this.logger.log(`reconciled: ${namespaces.length} managed namespaces, ${orphans} orphans deleted, ${lost} records without namespace failed, ${resumed} operations resumed`);
  }

  /** Live lessons that need work and nobody works on: submit them (duplicates coalesce). */
  async redrive(olderThan = new Date(Date.now() - this.config.scheduler.redriveAfterSeconds * 1000)): Promise<number> {
    const due = await this.data.work.findNeedingWork(olderThan, REDRIVE_BATCH);
    for (const lesson of due) {
      const kind = lesson.deleteRequestedAt ? 'delete' : ModifyLessonOperation.isPending(lesson) ? 'modify' : 'create';
      this.scheduler.submit(kind, lesson.id, 're-driven');
    }
    return due.length;
  }
}
