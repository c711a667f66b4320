import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { LabAdmission, type Standing } from './lab-admission.service.js';

/** A waiting lab's place, as its event stream carries it (`event: queue`); position 0: it left the line (admitted, or gone). */
export interface QueueEvent {
  liveLessonId: string;
  position: number;
  waiting: number;
  estimatedWaitSeconds?: number;
  at: string;
}

/** How often the line is read while some stream follows a waiting lab. */
const REFRESH_MS = 1000;

export const queueEventOf = (standing: Standing | undefined, liveLessonId: string): QueueEvent => ({
  liveLessonId,
  position: standing?.position ?? 0,
  waiting: standing?.waiting ?? 0,
  ...(standing?.estimatedWaitSeconds === undefined ? {} : { estimatedWaitSeconds: standing.estimatedWaitSeconds }),
  at: new Date().toISOString(),
});

const keyOf = (event: QueueEvent): string => `${event.position}/${event.waiting}/${event.estimatedWaitSeconds ?? '-'}`;

/**
 * Places in line for the event streams of waiting labs: while any stream follows one, the line is read
 * once a second (one query for all of them, whichever replica admitted whom) and each stream gets its
 * lab's place when it changed; reading it also tells the queue its learner is still there. A lab that
 * left the line gets position 0 once; its status events (BOOTING…) follow on the same stream.
 */
@Injectable()
export class QueueWatcher implements OnApplicationShutdown {
  private readonly logger = new Logger('Admission');
  private readonly emitter = new EventEmitter();
  private timer?: NodeJS.Timeout;
  private refreshing = false;

  constructor(@Inject(LabAdmission) private readonly admission: LabAdmission) {
    this.emitter.setMaxListeners(0);
  }

  /** Calls `listener` with each change of the lab's place after `current`; returns the unsubscribe function. */
  follow(liveLessonId: string, current: QueueEvent, listener: (event: QueueEvent) => void): () => void {
    let last = keyOf(current);
    let done = current.position === 0;
    const onEvent = (event: QueueEvent): void => {
      if (done || keyOf(event) === last) return;
      last = keyOf(event);
      done = event.position === 0;
      listener(event);
    };
    this.emitter.on(liveLessonId, onEvent);
    this.timer ??= setInterval(() => void this.refresh(), REFRESH_MS);
    return () => {
      this.emitter.off(liveLessonId, onEvent);
      if (this.emitter.eventNames().length === 0) this.stop();
    };
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const line = await this.admission.line();
      const followed = new Set(this.emitter.eventNames().map(String));
      const byId = new Map(line.map((standing) => [standing.liveLessonId, standing]));
      await this.admission.seen([...followed].filter((id) => byId.has(id)));
      for (const id of followed) this.emitter.emit(id, queueEventOf(byId.get(id), id));
    } catch (error) {
      this.logger.warn(`could not read the waiting line: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.refreshing = false;
    }
  }
}
