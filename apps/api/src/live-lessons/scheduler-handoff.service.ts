import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ErrorCodes, RequestSubjects, type RequestOf, type SchedulerReply } from '@antidote/contracts';
import { BusClient, BusRequestError } from '@antidote/messaging';

type HandoffSubject = typeof RequestSubjects.liveLessonCreate | typeof RequestSubjects.liveLessonModify | typeof RequestSubjects.liveLessonDelete;
interface Pending {
  subject: HandoffSubject;
  payload: RequestOf<HandoffSubject>;
  attempts: number;
}

/** How long to wait for a scheduler's answer. */
const REPLY_TIMEOUT_MS = 5000;
/** Requests not handed over yet are sent again this often, and at once when the NATS connection is back. */
const RETRY_MS = 2000;
/** After this many tries the scheduler's own re-drive from the database is left to do it (it always does). */
const MAX_ATTEMPTS = 15;
/** Requests remembered at once; beyond, the scheduler's re-drive covers them. */
const MAX_PENDING = 10_000;

/**
 * Hands a request the api accepted (its row already written) to a scheduler over NATS. When no scheduler
 * answers — NATS down, every scheduler restarting, a reply lost — the request stays accepted and is sent
 * again every 2 s and as soon as the connection is back, so it moves in seconds rather than waiting for the
 * scheduler's periodic re-drive. Duplicates are harmless: the scheduler claims the row before working.
 */
@Injectable()
export class SchedulerHandoff implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Handoff');
  private readonly pending = new Map<string, Pending>();
  private timer?: NodeJS.Timeout;
  private stopListening = (): void => undefined;
  private retrying = false;

  constructor(@Inject(BusClient) private readonly bus: Pick<BusClient, 'request' | 'onReconnect'>) {}

  onApplicationBootstrap(): void {
    this.stopListening = this.bus.onReconnect(() => void this.retry());
    this.timer = setInterval(() => void this.retry(), RETRY_MS);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.stopListening();
  }

  /** Requests waiting to be handed over. */
  get waiting(): number {
    return this.pending.size;
  }

  /**
   * Sends the request; the scheduler's reply, or undefined when none came — no scheduler, no reply in
   * time, or a scheduler that failed to handle it (its database away) — and it is then sent again. Only a
   * request that breaks its contract (a bug here) is thrown.
   */
  async tell<S extends HandoffSubject>(subject: S, payload: RequestOf<S>): Promise<SchedulerReply | undefined> {
    const id = payload.liveLessonId;
    this.pending.delete(id);
    const reply = await this.send(subject, payload);
    if (!reply) this.remember(id, { subject, payload, attempts: 1 });
    return reply;
  }

  /** Sends every waiting request again (one pass at a time). */
  async retry(): Promise<void> {
    if (this.retrying || this.pending.size === 0) return;
    this.retrying = true;
    try {
      for (const [id, waiting] of [...this.pending]) {
        if (this.pending.get(id) !== waiting) continue;
        const reply = await this.send(waiting.subject, waiting.payload).catch(() => undefined);
        if (this.pending.get(id) !== waiting) continue;
        waiting.attempts++;
        if (reply) {
          this.pending.delete(id);
          this.logger.log(`handed ${waiting.subject} of ${id} over after ${waiting.attempts} tries`);
        } else if (waiting.attempts >= MAX_ATTEMPTS) {
          this.pending.delete(id);
          this.logger.warn(`no scheduler took ${waiting.subject} of ${id} in ${waiting.attempts} tries; the scheduler's re-drive from the database will`);
        }
      }
    } finally {
      this.retrying = false;
    }
  }

  private async send<S extends HandoffSubject>(subject: S, payload: RequestOf<S>): Promise<SchedulerReply | undefined> {
    try {
      return await this.bus.request(subject, payload, { correlationId: payload.liveLessonId, timeoutMs: REPLY_TIMEOUT_MS });
    } catch (error) {
      if (!(error instanceof BusRequestError)) throw error;
      if (error.code !== ErrorCodes.unavailable && error.code !== ErrorCodes.timeout)
        this.logger.warn(`a scheduler failed ${subject} of ${payload.liveLessonId}: ${error.message}`);
      return undefined;
    }
  }

  private remember(id: string, waiting: Pending): void {
    if (this.pending.size >= MAX_PENDING) {
      this.logger.warn(`${waiting.subject} of ${id} not handed over and not remembered (${MAX_PENDING} waiting); the scheduler's re-drive will take it`);
      return;
    }
    this.logger.warn(`no scheduler took ${waiting.subject} of ${id} yet; sent again every ${RETRY_MS / 1000} s and when NATS is back`);
    this.pending.set(id, waiting);
  }
}
