import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { EventSubjects, LiveLessonStatus, type HealthProgressEvent, type LiveLessonStatusChangedEvent } from '@antidote/contracts';
import { DataManager, liveLessonStatusOf, type WrittenLiveLessonState } from '@antidote/data';
import { BusClient } from '@antidote/messaging';
import type { Subscription } from '@nats-io/transport-node';

/** A status as a stream sends it: the row's state, and when the row last changed. */
export type StreamStatus = ReturnType<typeof liveLessonStatusOf> & { at: string };

/** What a stream hears: its row's state, health progress, or that the row is gone (the live lesson was deleted). */
export type LiveLessonEvent = { kind: 'status'; event: StreamStatus } | { kind: 'progress'; event: HealthProgressEvent } | { kind: 'deleted' };

export const streamStatusOf = (row: WrittenLiveLessonState): StreamStatus => ({ ...liveLessonStatusOf(row), at: row.updatedAt.toISOString() });

/**
 * One NATS subscription per api process (no queue group: every replica sees every event), fanned out in
 * memory to the SSE clients of each live lesson. The row is the truth: an event is only a cue to read
 * it. A status event reaches clients when the row, read again, agrees with it (same status, error flag and
 * stage; for a deletion, no row), and what they get is the row's state and time, never text from the
 * message. Health progress is checked against the row the same way (an endpoint it has, its counts) and
 * carries the row's counts. Events lost with NATS do not leave a stream behind: every open stream's row is
 * read again when the bus connection comes back and every `api.eventResyncSeconds`. Each read is numbered;
 * a read older than the last one a stream was sent is dropped, so a stream never goes backwards.
 */
@Injectable()
export class LiveLessonEventHub implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Events');
  private readonly emitter = new EventEmitter();
  private readonly subscriptions: Subscription[] = [];
  private readonly checking = new Map<string, Promise<void>>();
  /** Per live lesson with listeners: the number of the row read last sent to them. */
  private readonly sentRead = new Map<string, number>();
  private reads = 0;
  private timer?: NodeJS.Timeout;
  private stopListening = (): void => undefined;

  constructor(
    @Inject(BusClient) private readonly bus: BusClient,
    @Inject(DataManager) private readonly data: DataManager,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {
    this.emitter.setMaxListeners(0);
  }

  onApplicationBootstrap(): void {
    void (async () => {
      this.subscriptions.push(
        await this.bus.subscribe(EventSubjects.liveLessonStatusChanged, (event) => this.inOrder(event.liveLessonId, () => this.forwardIfTrue(event))),
      );
      this.subscriptions.push(
        await this.bus.subscribe(EventSubjects.healthProgressed, (event) => this.inOrder(event.liveLessonId, () => this.forwardProgressIfTrue(event))),
      );
    })().catch((error: unknown) => this.logger.error(`cannot subscribe to live lesson events: ${String(error)}`));
    this.stopListening = this.bus.onReconnect(() => void this.resync());
    this.timer = setInterval(() => void this.resync(), this.config.api.eventResyncSeconds * 1000);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.stopListening();
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }

  /** Calls `listener` for each event of the live lesson; returns the unsubscribe function. */
  listen(liveLessonId: string, listener: (event: LiveLessonEvent) => void): () => void {
    this.emitter.on(liveLessonId, listener);
    return () => {
      this.emitter.off(liveLessonId, listener);
      if (this.listenerCount(liveLessonId) === 0) this.sentRead.delete(liveLessonId);
    };
  }

  listenerCount(liveLessonId: string): number {
    return this.emitter.listenerCount(liveLessonId);
  }

  /** Reads the row of every live lesson with an open stream (in batches) and sends each its state; streams skip what they already showed. */
  async resync(): Promise<void> {
    const ids = this.emitter.eventNames().filter((name): name is string => typeof name === 'string');
    if (ids.length === 0) return;
    const read = ++this.reads;
    try {
      const rows = await this.data.liveLessons.findStates(ids);
      for (const id of ids) this.send(id, read, rows.get(id));
    } catch (error) {
      this.logger.warn(`could not read the rows of ${ids.length} open event streams: ${String(error)}`);
    }
  }

  /** Runs the check of an event after those of the same live lesson before it (none when nobody listens). */
  private inOrder(id: string, check: () => Promise<void>): void {
    if (this.listenerCount(id) === 0) return;
    const previous = this.checking.get(id) ?? Promise.resolve();
    const next = previous.then(check).catch((error: unknown) => this.logger.warn(`event of ${id} not checked: ${String(error)}`));
    this.checking.set(id, next);
    void next.finally(() => this.checking.get(id) === next && this.checking.delete(id));
  }

  /** The row of read number `read` (undefined: it is gone), unless a later read was sent already. */
  private send(id: string, read: number, row: WrittenLiveLessonState | undefined): void {
    if (this.listenerCount(id) === 0 || read <= (this.sentRead.get(id) ?? 0)) return;
    this.sentRead.set(id, read);
    this.emitter.emit(id, row ? { kind: 'status', event: streamStatusOf(row) } : { kind: 'deleted' });
  }

  private async forwardIfTrue(event: LiveLessonStatusChangedEvent): Promise<void> {
    const read = ++this.reads;
    const row = await this.data.liveLessons.findState(event.liveLessonId);
    const agrees = event.deleted ? !row : !!row && row.status === event.status && row.error === event.error && row.currentStage === event.stage;
    if (!agrees) {
      this.logger.debug(`status event of ${event.liveLessonId} (${event.status}${event.deleted ? ', deleted' : ''}) does not match its row; not forwarded`);
      return;
    }
    this.send(event.liveLessonId, read, row);
  }

  /**
   * A progress event (already valid against its contract, else dropped and logged by the bus) reaches
   * only the streams of the live lesson it names, and only when that row agrees: it exists, is still
   * being brought up, has the named endpoint, and counts as many tests and at least as many healthy
   * (the healthchecker records progress on the row before it publishes it). What is sent is the row's.
   */
  private async forwardProgressIfTrue(event: HealthProgressEvent): Promise<void> {
    const row = await this.data.liveLessons.findStateWithEndpoint(event.liveLessonId, event.endpoint);
    const agrees =
      !!row && row.hasEndpoint && !row.error && row.status !== LiveLessonStatus.READY && row.totalTests === event.total && event.healthy <= row.healthyTests;
    if (!agrees) {
      this.logger.warn(`health progress of ${event.liveLessonId} (${event.endpoint} ${event.healthy}/${event.total}) does not match its row; not forwarded`);
      return;
    }
    const progress: HealthProgressEvent = {
      liveLessonId: row.id,
      endpoint: event.endpoint,
      healthy: row.healthyTests,
      total: row.totalTests,
      at: row.updatedAt.toISOString(),
    };
    this.emitter.emit(row.id, { kind: 'progress', event: progress });
  }
}
