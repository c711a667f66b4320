import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataManager } from '@antidote/data';
import { LABEL } from '@antidote/lesson-objects';
import { LessonInformers } from '../cluster/lesson-informers.js';
import { reasonOf } from '../lesson/lesson-failure.error.js';
import { StatusReporter } from '../lesson/status-reporter.js';
import { LessonScheduler } from '../lesson-scheduler.service.js';

/**
 * A live lesson whose namespace goes away without Antidote asking (deleted by hand, by another tool)
 * is failed with that reason at once, from the namespace informer — not left READY with nothing
 * behind it. Our own deletions are recognised from the row (deletion requested, or already failed);
 * a lesson with an operation under way is left to it: its waits fail on the missing namespace.
 */
@Injectable()
export class NamespaceWatchdog implements OnModuleInit {
  private readonly logger = new Logger('Watchdog');

  constructor(
    @Inject(LessonInformers) private readonly informers: LessonInformers,
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(StatusReporter) private readonly status: StatusReporter,
    @Inject(LessonScheduler) private readonly scheduler: Pick<LessonScheduler, 'pending'>,
  ) {}

  onModuleInit(): void {
    this.informers.onNamespaceGone((namespace) => {
      const id = namespace.metadata?.labels?.[LABEL.liveLesson];
      if (!id) return;
      void this.check(id, namespace.metadata?.name ?? '').catch((error: unknown) => this.logger.warn(`could not check live lesson ${id} after its namespace went: ${reasonOf(error)}`));
    });
  }

  private async check(id: string, namespace: string): Promise<void> {
    const lesson = await this.data.liveLessons.find(id);
    if (!lesson || lesson.error || lesson.deleteRequestedAt || this.scheduler.pending(id).length > 0) return;
    await this.status.fail(id, `Namespace ${namespace} was deleted outside Antidote; the live lesson's endpoints are gone`);
  }
}
