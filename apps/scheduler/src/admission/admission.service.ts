import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { DataManager, type AdmissionTicket, type DrainResult, type LiveLesson, type TicketState } from '@antidote/data';
import { LessonFailure } from '../lesson/lesson-failure.error.js';
import { AdmissionMetrics } from './admission.metrics.js';

/**
 * The scheduler's side of the waiting room: admission passes (`drain`) that admit waiting labs into
 * freed capacity in the queue's fair order — in the database, under its lock, so replicas never admit
 * past `scheduler.maxLiveLessons` — and the check a create makes before it builds anything. Passes are
 * coalesced per process (a pass asked for while one runs runs once after it). Who builds the admitted
 * labs listens (`onDrained`): the AdmissionKeeper, which owns the work queue side.
 */
@Injectable()
export class Admission {
  private readonly logger = new Logger('Admission');
  private readonly listeners: ((result: DrainResult) => void)[] = [];
  private running: Promise<unknown> = Promise.resolve();
  private next?: Promise<DrainResult>;

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(AdmissionMetrics) private readonly metrics: AdmissionMetrics,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  onDrained(listener: (result: DrainResult) => void): void {
    this.listeners.push(listener);
  }

  /** Runs an admission pass (after the one running, if any); every caller meanwhile shares it. */
  drain(): Promise<DrainResult> {
    this.next ??= this.running.then(() => {
      const pass = this.pass();
      this.next = undefined;
      this.running = pass.catch(() => undefined);
      return pass;
    });
    return this.next;
  }

  /** Capacity was freed here (a deletion): a pass when anyone waits. */
  async capacityFreed(): Promise<void> {
    if ((await this.data.admission.waitingCount()) > 0) await this.drain();
  }

  /**
   * May this INITIALIZED live lesson be built now? A learner's lab has a ticket: yes once admitted (a
   * pass is run for it when it waits); no while it waits or after it left the line. A row without a
   * ticket (a warm-pool member) is built while capacity holds, else it fails as at capacity. `known`: the
   * ticket's state when the caller read it already (admitted and ended are final; waiting is looked at again).
   */
  async admit(lesson: LiveLesson, known?: TicketState): Promise<boolean> {
    const ticket = known ?? ticketStateOf(await this.data.admission.find(lesson.id));
    if (ticket === 'none') return this.admitUnqueued(lesson.id);
    if (ticket === 'admitted') return true;
    if (ticket === 'ended') return false;
    // A pass that fails (the database busy or away) leaves the lab waiting, never failed: the next round admits it.
    await this.drain().catch((error: unknown) =>
      this.logger.warn(`admission pass for ${lesson.id} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    return (await this.data.admission.find(lesson.id))?.admittedAt != null;
  }

  private async admitUnqueued(id: string): Promise<boolean> {
    const cap = this.config.scheduler.maxLiveLessons;
    if (cap > 0 && (await this.data.admission.holding(id)) >= cap)
      throw new LessonFailure(`Antidote is at capacity (${cap} live lessons); please try again later`, true);
    return true;
  }

  private async pass(): Promise<DrainResult> {
    const { maxLiveLessons, queueAbandonSeconds } = this.config.scheduler;
    const result = await this.data.admission.drain(maxLiveLessons, new Date(Date.now() - queueAbandonSeconds * 1000));
    this.metrics.length.set(result.waiting);
    for (const ticket of result.admitted) {
      const waited = ((ticket.admittedAt?.getTime() ?? 0) - ticket.enqueuedAt.getTime()) / 1000;
      if (waited > 0) this.metrics.wait.observe(waited);
      this.metrics.admitted.inc();
    }
    this.metrics.abandoned.inc(result.abandoned.length);
    if (result.admitted.length + result.abandoned.length > 0) {
      this.logger.log(`admission: ${result.admitted.length} admitted, ${result.abandoned.length} abandoned, ${result.waiting} waiting`);
    }
    for (const listener of this.listeners) listener(result);
    return result;
  }
}

const ticketStateOf = (ticket: AdmissionTicket | undefined): TicketState =>
  !ticket ? 'none' : ticket.admittedAt ? 'admitted' : ticket.endedAt ? 'ended' : 'waiting';
