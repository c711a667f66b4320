import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { EventSubjects, type HealthProgressEvent, type LiveLessonStatusChangedEvent } from '@antidote/contracts';
import { BusClient } from '@antidote/messaging';
import type { Subscription } from '@nats-io/transport-node';

export type LiveLessonEvent = { kind: 'status'; event: LiveLessonStatusChangedEvent } | { kind: 'progress'; event: HealthProgressEvent };

/**
 * One NATS subscription per api process (no queue group: every replica sees every event), fanned out in
 * memory to the SSE clients of each live lesson.
 */
@Injectable()
export class LiveLessonEventHub implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Events');
  private readonly emitter = new EventEmitter();
  private readonly subscriptions: Subscription[] = [];

  constructor(@Inject(BusClient) private readonly bus: BusClient) {
    this.emitter.setMaxListeners(0);
  }

  onApplicationBootstrap(): void {
    void (async () => {
      this.subscriptions.push(await this.bus.subscribe(EventSubjects.liveLessonStatusChanged, (event) => void this.emitter.emit(event.liveLessonId, { kind: 'status', event })));
      this.subscriptions.push(await this.bus.subscribe(EventSubjects.healthProgressed, (event) => void this.emitter.emit(event.liveLessonId, { kind: 'progress', event })));
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
}
