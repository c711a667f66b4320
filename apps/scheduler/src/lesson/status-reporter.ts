import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventSubjects, LiveLessonStatus, type LiveLessonStatusChangedEvent } from '@antidote/contracts';
import { DataManager, liveLessonStatusOf, type LiveLesson, type LiveLessonState } from '@antidote/data';
import { BusClient } from '@antidote/messaging';
import { SchedulerMetrics } from '../scheduler.metrics.js';

const ORDER: readonly LiveLessonStatus[] = [LiveLessonStatus.INITIALIZED, LiveLessonStatus.BOOTING, LiveLessonStatus.CONFIGURATION, LiveLessonStatus.READY];

/** Status never moves backwards (a resumed create must not show BOOTING again after CONFIGURATION). */
export const isAfter = (a: LiveLessonStatus, b: LiveLessonStatus): boolean => ORDER.indexOf(a) > ORDER.indexOf(b);

export function statusEvent(lesson: LiveLessonState, extra: Partial<LiveLessonStatusChangedEvent> = {}): LiveLessonStatusChangedEvent {
  return { ...liveLessonStatusOf(lesson), sessionId: lesson.sessionId, lessonSlug: lesson.lessonSlug, at: new Date().toISOString(), ...extra };
}

/** The one writer of live lesson status: database first, then the status-changed event. */
@Injectable()
export class StatusReporter {
  private readonly logger = new Logger('Status');

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(BusClient) private readonly bus: Pick<BusClient, 'publish'>,
    @Inject(SchedulerMetrics) private readonly metrics: SchedulerMetrics,
  ) {}

  /** Moves the live lesson forward to `status` (no-op when it is already there or beyond), with when it is expected READY if known. */
  async advance(lesson: LiveLesson, status: LiveLessonStatus, estimatedReadyAt?: Date): Promise<LiveLesson> {
    if (lesson.status === status || isAfter(lesson.status, status)) return lesson;
    const written = await this.data.liveLessons.updateStatus(lesson.id, status, estimatedReadyAt);
    if (status === LiveLessonStatus.READY && written.pool) this.metrics.observeRefill(written.lessonSlug, written.phaseTimes);
    else if (status === LiveLessonStatus.READY) this.metrics.observeReady(written.lessonSlug, written.phaseTimes);
    this.publish(written);
    // The status write returns the state columns; the rest (endpoints, guide) is the caller's, unchanged by it.
    return { ...lesson, ...written };
  }

  /** READY again after a stage change (the api had set CONFIGURATION). */
  async ready(lesson: LiveLesson): Promise<LiveLesson> {
    if (lesson.status === LiveLessonStatus.READY) return lesson;
    return this.advance(lesson, LiveLessonStatus.READY);
  }

  async fail(id: string, reason: string): Promise<void> {
    const failed = await this.data.liveLessons.markFailed(id, reason);
    this.metrics.failures.inc({ status: failed.status });
    this.logger.warn(`live lesson ${id} failed in ${failed.status}: ${reason}`);
    this.publish(failed);
  }

  deleted(lesson: LiveLesson): void {
    this.publish(lesson, { deleted: true });
  }

  publish(lesson: LiveLessonState, extra: Partial<LiveLessonStatusChangedEvent> = {}): void {
    try {
      this.bus.publish(EventSubjects.liveLessonStatusChanged, statusEvent(lesson, extra), lesson.id);
    } catch (error) {
      // The database holds the truth; a lost event only delays a client's view until it polls.
      this.logger.warn(`could not publish the status of ${lesson.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
