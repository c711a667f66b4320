import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataManager } from '@antidote/data';
import { LABEL } from '@antidote/lesson-objects';
import { LessonInformers } from '../cluster/lesson-informers.js';
import { reasonOf } from '../lesson/lesson-failure.error.js';
import { StatusReporter } from '../lesson/status-reporter.js';
import { LessonScheduler } from '../lesson-scheduler.service.js';

/** How often a lesson with an operation under way is looked at again (memory only, no call). */
const PENDING_RECHECK_MS = 500;

/**
 * A live lesson whose namespace goes away without Antidote asking (deleted by hand, by another tool)
 * is failed with that reason at once, from the namespace informer — not left READY with nothing
 * behind it. Our own deletions are recognised from the row (deletion requested, or already failed).
 * A lesson with an operation under way is looked at again once that operation has ended (its waits
 * fail on the missing namespace by themselves; a create past its waits would otherwise end READY).
 */
@Injectable()
export class NamespaceWatchdog implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Watchdog');
  private readonly stopping = new AbortController();

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
      void this.check(id, namespace.metadata?.name ?? '').catch((error: unknown) =>
        this.logger.warn(`could not check live lesson ${id} after its namespace went: ${reasonOf(error)}`),
      );
    });
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
  }

  private async check(id: string, namespace: string): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      if (this.scheduler.pending(id).length > 0) {
        await sleep(PENDING_RECHECK_MS, undefined, { signal }).catch(() => undefined);
        continue;
      }
      const lesson = await this.data.liveLessons.find(id);
      if (!lesson || lesson.error || lesson.deleteRequestedAt) return;
      await this.status.fail(id, `Namespace ${namespace} was deleted outside Antidote; the live lesson's endpoints are gone`);
      return;
    }
  }
}
