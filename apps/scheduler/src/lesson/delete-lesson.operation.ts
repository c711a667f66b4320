import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { DataManager, type LiveLesson } from '@antidote/data';
import { namespaceName } from '@antidote/lesson-objects';
import { Admission } from '../admission/admission.service.js';
import { LESSON_CLUSTER, type LessonCluster } from '../cluster/lesson-cluster.port.js';
import { StatusReporter } from './status-reporter.js';

/**
 * DELETE: the namespace (one call removes everything in it), wait until it is gone, then the record.
 * If the namespace does not go away in time the record stays, marked for deletion, and the re-drive
 * tries again later; the reaper reports namespaces stuck in Terminating.
 */
@Injectable()
export class DeleteLessonOperation {
  private readonly logger = new Logger('Delete');

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(LESSON_CLUSTER) private readonly cluster: LessonCluster,
    @Inject(StatusReporter) private readonly status: StatusReporter,
    @Inject(Admission) private readonly admission: Admission,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  async run(lesson: LiveLesson, signal: AbortSignal, reason = 'deleted'): Promise<void> {
    await this.data.liveLessons.requestDeletion(lesson.id);
    await this.cluster.deleteNamespace(namespaceName(this.config.instanceId, lesson.id), this.config.timeouts.namespaceDeleteSeconds * 1000, signal);
    await this.data.liveLessons.delete(lesson.id);
    this.status.deleted(lesson);
    this.logger.log(`live lesson ${lesson.id} deleted (${reason})`);
    // Its capacity is free: the next in line is admitted now, not at the next admission round.
    await this.admission
      .capacityFreed()
      .catch((error: unknown) =>
        this.logger.warn(`admission pass after deleting ${lesson.id} failed: ${error instanceof Error ? error.message : String(error)}`),
      );
  }

  /** Tears down a failed live lesson's namespace but keeps its record (with the reason) for the api and the reaper. */
  async cleanUpFailed(lesson: LiveLesson, signal: AbortSignal): Promise<void> {
    await this.cluster.deleteNamespace(namespaceName(this.config.instanceId, lesson.id), this.config.timeouts.namespaceDeleteSeconds * 1000, signal);
  }
}
