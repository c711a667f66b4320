import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { EventSubjects, LiveLessonStatus, type LiveLessonStatusChangedEvent } from '@antidote/contracts';
import { DataManager, liveLessonStatusOf, withEndpointState, type LiveLesson, type LiveLessonState, type StatusWrite } from '@antidote/data';
import { BusClient } from '@antidote/messaging';
import { SchedulerMetrics } from '../scheduler.metrics.js';

/** Live lessons whose status could not be published, remembered for the reconnect (beyond this, the api's periodic re-read covers them). */
const MAX_UNSENT = 10_000;

const ORDER: readonly LiveLessonStatus[] = [LiveLessonStatus.INITIALIZED, LiveLessonStatus.BOOTING, LiveLessonStatus.CONFIGURATION, LiveLessonStatus.READY];

/** Status never moves backwards (a resumed create must not show BOOTING again after CONFIGURATION). */
export const isAfter = (a: LiveLessonStatus, b: LiveLessonStatus): boolean => ORDER.indexOf(a) > ORDER.indexOf(b);

export function statusEvent(lesson: LiveLessonState, extra: Partial<LiveLessonStatusChangedEvent> = {}): LiveLessonStatusChangedEvent {
  return { ...liveLessonStatusOf(lesson), sessionId: lesson.sessionId, lessonSlug: lesson.lessonSlug, at: new Date().toISOString(), ...extra };
}

/**
 * The one writer of live lesson status: database first, then the status-changed event. An event that
 * cannot go out (NATS down) is not lost for good: the live lesson is remembered, and once the connection
 * is back its latest state is read from the row and published (a deletion as a deletion).
 */
@Injectable()
export class StatusReporter implements OnApplicationShutdown {
  private readonly logger = new Logger('Status');
  private readonly unsent = new Set<string>();
  private readonly stopListening: () => void;

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(BusClient) private readonly bus: Pick<BusClient, 'publish' | 'onReconnect'>,
    @Inject(SchedulerMetrics) private readonly metrics: SchedulerMetrics,
  ) {
    this.stopListening = bus.onReconnect(() => void this.republish());
  }

  onApplicationShutdown(): void {
    this.stopListening();
  }

  /**
   * Moves the live lesson forward to `status` (no-op when it is already there or beyond), with what `also`
   * gives — when it is expected READY, the stage whose configuration has run, the release of the claim of
   * `releasedBy` (the work ends with this write), the endpoints' addresses — in one statement.
   */
  async advance(lesson: LiveLesson, status: LiveLessonStatus, also: StatusWrite = {}): Promise<LiveLesson> {
    if (!this.moves(lesson, status)) return lesson;
    const { endpointUpAt, ...written } = await this.data.liveLessons.updateStatus(lesson.id, status, also);
    if (status === LiveLessonStatus.READY && written.pool) this.metrics.observeRefill(written.lessonSlug, written.phaseTimes);
    else if (status === LiveLessonStatus.READY) this.metrics.observeReady(written.lessonSlug, written.phaseTimes);
    this.publish(written);
    // The status write returns the state columns and the endpoints' up times; the rest (endpoints, guide) is the caller's, unchanged by it.
    const configured = also.configuredStage !== undefined ? { configuredStage: also.configuredStage } : {};
    return withEndpointState({ ...lesson, ...written, ...configured }, { hosts: also.hosts, upAt: endpointUpAt });
  }

  /** Whether `advance` to `status` writes (the live lesson is not there or beyond yet). */
  moves(lesson: LiveLesson, status: LiveLessonStatus): boolean {
    return lesson.status !== status && !isAfter(lesson.status, status);
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
      this.unsent.delete(lesson.id);
    } catch (error) {
      // The database holds the truth: the latest state goes out once the bus is back.
      this.logger.warn(
        `could not publish the status of ${lesson.id}: ${error instanceof Error ? error.message : String(error)}; it is sent again once NATS is back`,
      );
      if (this.unsent.size < MAX_UNSENT) this.unsent.add(lesson.id);
    }
  }

  /** The latest state of every live lesson whose event was lost while the bus was down, from its row. */
  async republish(): Promise<number> {
    const ids = [...this.unsent];
    this.unsent.clear();
    if (ids.length === 0) return 0;
    let states: Awaited<ReturnType<DataManager['liveLessons']['findStates']>>;
    try {
      states = await this.data.liveLessons.findStates(ids);
    } catch (error) {
      for (const id of ids) this.unsent.add(id);
      this.logger.warn(`could not read the states to publish again: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
    for (const id of ids) {
      const state = states.get(id);
      // A row gone meanwhile was deleted: said as a deletion (the api checks it against the row, as every event).
      this.publish(state ?? { ...DELETED, id }, state ? {} : { deleted: true });
    }
    this.logger.log(`published again the status of ${ids.length} live lessons whose events NATS lost`);
    return ids.length;
  }
}

/** The state fields of a deletion event for a row that no longer exists (the api sends its own record of the lesson). */
const DELETED: Omit<LiveLessonState, 'id'> = {
  sessionId: '',
  lessonSlug: '',
  status: LiveLessonStatus.INITIALIZED,
  error: false,
  currentStage: 0,
  healthyTests: 0,
  totalTests: 0,
  phaseTimes: {},
};
