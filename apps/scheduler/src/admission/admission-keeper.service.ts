import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { DataManager, type DrainResult } from '@antidote/data';
import { ReadinessRegistry } from '@antidote/runtime';
import { reasonOf } from '../lesson/lesson-failure.error.js';
import { LessonScheduler } from '../lesson-scheduler.service.js';
import { Admission } from './admission.service.js';
import { AdmissionMetrics } from './admission.metrics.js';

/** An admitted lab still INITIALIZED and unclaimed this long after its admission had its create lost: submitted again. */
const RESTART_AFTER_MS = 5000;
/** Ended tickets are kept this long: the lifetimes wait estimates learn from, the last hour's figures. */
const HISTORY_MS = 24 * 60 * 60_000;

/**
 * Drives the waiting room from this scheduler: builds what a pass admitted (the normal CREATE through
 * the work queue), deletes what was abandoned, and every `scheduler.admissionIntervalSeconds` runs a
 * pass when anyone waits (capacity freed by another replica, a failure, the reaper's expiry), restarts
 * admitted labs whose create was lost (a restart, a replica's crash), and closes the tickets of labs
 * that ended. Deletions run a pass themselves (DeleteLessonOperation), so the line moves at once.
 */
@Injectable()
export class AdmissionKeeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Admission');
  private readonly stopping = new AbortController();
  private timer?: NodeJS.Timeout;
  private ticking = false;

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(Admission) private readonly admission: Admission,
    @Inject(LessonScheduler) private readonly scheduler: Pick<LessonScheduler, 'submit'>,
    @Inject(AdmissionMetrics) private readonly metrics: AdmissionMetrics,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {
    admission.onDrained((result) => void this.carryOut(result));
  }

  onApplicationBootstrap(): void {
    void this.start();
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
    clearInterval(this.timer);
  }

  private async start(): Promise<void> {
    try {
      await this.readiness.waitUntilReady(undefined, 250, this.stopping.signal);
    } catch {
      return;
    }
    this.timer = setInterval(() => void this.tick(), this.config.scheduler.admissionIntervalSeconds * 1000);
    void this.tick();
  }

  /** One round: a pass if anyone waits, lost creates restarted, ended tickets closed. */
  async tick(): Promise<void> {
    if (this.ticking || this.stopping.signal.aborted) return;
    this.ticking = true;
    try {
      const waiting = await this.data.admission.waitingCount();
      this.metrics.length.set(waiting);
      if (waiting > 0) await this.admission.drain();
      for (const id of await this.data.admissionStats.admittedNotStarted(new Date(Date.now() - RESTART_AFTER_MS)))
        this.scheduler.submit('create', id, 'admitted, not started');
      await this.data.admissionStats.settle(new Date(Date.now() - HISTORY_MS));
    } catch (error) {
      this.logger.warn(`admission round failed: ${reasonOf(error)}`);
    } finally {
      this.ticking = false;
    }
  }

  private async carryOut(result: DrainResult): Promise<void> {
    for (const ticket of result.admitted) this.scheduler.submit('create', ticket.liveLessonId, 'admitted');
    for (const id of result.abandoned) {
      try {
        await this.data.liveLessons.requestDeletion(id);
        this.scheduler.submit('delete', id, 'abandoned in the waiting room');
      } catch (error) {
        this.logger.warn(`could not delete abandoned ${id}: ${reasonOf(error)}`);
      }
    }
  }
}
