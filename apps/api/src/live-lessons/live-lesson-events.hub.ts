import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { EventSubjects, LiveLessonStatus, type HealthProgressEvent, type LiveLessonStatusChangedEvent } from '@antidote/contracts';
import { DataManager, liveLessonStatusOf } from '@antidote/data';
import { BusClient } from '@antidote/messaging';
import type { Subscription } from '@nats-io/transport-node';

export type LiveLessonEvent = { kind: 'status'; event: LiveLessonStatusChangedEvent } | { kind: 'progress'; event: HealthProgressEvent };

/**
 * One NATS subscription per api process (no queue group: every replica sees every event), fanned out in
 * memory to the SSE clients of each live lesson. The row is the truth: a status event reaches clients
 * only when the row, read again, agrees with it (same status, error flag and stage; for a deletion, no
 * row), and what they get is the row's state, never text from the message. Events of one live lesson
 * are checked in arrival order, so a stream never goes backwards. Health progress is checked against the
 * row the same way and reaches only the streams of the live lesson it names.
 */
@Injectable()
export class LiveLessonEventHub implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Events');
  private readonly emitter = new EventEmitter();
  private readonly subscriptions: Subscription[] = [];
  private readonly checking = new Map<string, Promise<void>>();

  constructor(
    @Inject(BusClient) private readonly bus: BusClient,
    @Inject(DataManager) private readonly data: DataManager,
  ) {
    this.emitter.setMaxListeners(0);
  }

  onApplicationBootstrap(): void {
    void (async () => {
      this.subscriptions.push(await this.bus.subscribe(EventSubjects.liveLessonStatusChanged, (event) => this.onStatus(event)));
      this.subscriptions.push(await this.bus.subscribe(EventSubjects.healthProgressed, (event) => this.inOrder(event.liveLessonId, () => this.forwardProgressIfTrue(event))));
    })().catch((error: unknown) => this.logger.error(`cannot subscribe to live lesson events: ${String(error)}`));
  }

  onApplicationShutdown(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }

  /** Calls `listener` for each event of the live lesson; returns the unsubscribe function. */
  listen(liveLessonId: string, listener: (event: LiveLessonEvent) => void): () => void {
    this.emitter.on(liveLessonId, listener);
    return () => this.emitter.off(liveLessonId, listener);
  }

  listenerCount(liveLessonId: string): number {
    return this.emitter.listenerCount(liveLessonId);
  }

  private onStatus(event: LiveLessonStatusChangedEvent): void {
    this.inOrder(event.liveLessonId, () => this.forwardIfTrue(event));
  }

  /** Runs the check of an event after those of the same live lesson before it (none when nobody listens). */
  private inOrder(id: string, check: () => Promise<void>): void {
    if (this.listenerCount(id) === 0) return;
    const previous = this.checking.get(id) ?? Promise.resolve();
    const next = previous.then(check).catch((error: unknown) => this.logger.warn(`event of ${id} not checked: ${String(error)}`));
    this.checking.set(id, next);
    void next.finally(() => this.checking.get(id) === next && this.checking.delete(id));
  }

  /**
   * A progress event (already valid against its contract, else dropped and logged by the bus) reaches
   * only the streams of the live lesson it names, and only when that row agrees: it exists, is still
   * being brought up, has the named endpoint, and counts as many tests and at least as many healthy
   * (the healthchecker records progress on the row before it publishes it).
   */
  private async forwardProgressIfTrue(event: HealthProgressEvent): Promise<void> {
    const row = await this.data.liveLessons.findStateWithEndpoint(event.liveLessonId, event.endpoint);
    const agrees = !!row && row.hasEndpoint && !row.error && row.status !== LiveLessonStatus.READY && row.totalTests === event.total && event.healthy <= row.healthyTests;
    if (!agrees) {
      this.logger.warn(`health progress of ${event.liveLessonId} (${event.endpoint} ${event.healthy}/${event.total}) does not match its row; not forwarded`);
      return;
    }
    const { liveLessonId, endpoint, healthy, total, at } = event;
    this.emitter.emit(liveLessonId, { kind: 'progress', event: { liveLessonId, endpoint, healthy, total, at } });
  }

  private async forwardIfTrue(event: LiveLessonStatusChangedEvent): Promise<void> {
    const row = await this.data.liveLessons.findState(event.liveLessonId);
    const agrees = event.deleted ? !row : !!row && row.status === event.status && row.error === event.error && row.currentStage === event.stage;
    if (!agrees) {
      this.logger.debug(`status event of ${event.liveLessonId} (${event.status}${event.deleted ? ', deleted' : ''}) does not match its row; not forwarded`);
      return;
    }
    const truth: LiveLessonStatusChangedEvent = row
      ? { ...liveLessonStatusOf(row), sessionId: row.sessionId, lessonSlug: row.lessonSlug, at: event.at }
      : { ...event, error: false, failureReason: undefined, deleted: true };
    this.emitter.emit(event.liveLessonId, { kind: 'status', event: truth });
  }
}
