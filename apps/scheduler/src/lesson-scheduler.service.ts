import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import { linkedSignal } from '@antidote/concurrency';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { LiveLessonStatus } from '@antidote/contracts';
import { DataManager, isDatabaseUnavailable, type ClaimedRow, type LiveLesson } from '@antidote/data';
import { admissionTicket, withWritePriority } from '@antidote/kube';
import { inSpan } from '@antidote/messaging';
import { withCorrelation } from '@antidote/runtime';
import { context } from '@opentelemetry/api';
import type { LessonPlan } from './cluster/lesson-cluster.port.js';
import { CreateLessonOperation, type CreateClaim } from './lesson/create-lesson.operation.js';
import { DeleteLessonOperation } from './lesson/delete-lesson.operation.js';
import { LessonFailure, reasonOf } from './lesson/lesson-failure.error.js';
import { ModifyLessonOperation } from './lesson/modify-lesson.operation.js';
import { StatusReporter } from './lesson/status-reporter.js';
import { SchedulerMetrics } from './scheduler.metrics.js';
import { ClaimKeeper, replicaNameOf } from './work/claim-keeper.js';
import { LessonWorkQueue, type EnqueueResult, type OperationKind } from './work/lesson-work-queue.js';

/** Listeners an operation's AbortSignal may have before node warns of a leak (each write waiting for a slot is one). */
const WAITERS_PER_OPERATION = 1_000;

/**
 * Runs live lesson operations: serialised per live lesson and bounded overall (LessonWorkQueue), and
 * safe across scheduler replicas — each operation first claims the row (a lease in the database, renewed
 * by the ClaimKeeper's heartbeat), so a duplicate or redelivered request never runs twice at once
 * anywhere. A failure marks the live lesson failed with its reason and tears the namespace down (unless
 * failed lessons are kept).
 */
@Injectable()
export class LessonScheduler implements OnApplicationShutdown {
  /** This replica's name on its claims (`scheduler.replicaName`, or the pod name). */
  readonly owner: string;
  private readonly logger = new Logger('Scheduler');
  private readonly queue: LessonWorkQueue;
  private readonly claims: ClaimKeeper;
  private closing = false;

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(CreateLessonOperation) private readonly creates: CreateLessonOperation,
    @Inject(ModifyLessonOperation) private readonly modifies: ModifyLessonOperation,
    @Inject(DeleteLessonOperation) private readonly deletes: DeleteLessonOperation,
    @Inject(StatusReporter) private readonly status: StatusReporter,
    @Inject(SchedulerMetrics) private readonly metrics: SchedulerMetrics,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {
    this.owner = replicaNameOf(config);
    this.claims = new ClaimKeeper(data.work, this.owner, config.scheduler.claimLeaseSeconds * 1000, {
      deletionRequested: (id) => this.submit('delete', id, 'requested'),
      renewFailed: (error) => this.logger.warn(`could not renew the claims of ${this.owner}: ${reasonOf(error)}`),
    });
    this.claims.start();
    // Operations in flight at once: a bound on memory (each holds its lesson's plan and objects); Kubernetes
    // writes have their own bound (`maxConcurrentOperations`, in the KubeClient), probes the healthchecker's.
    this.queue = new LessonWorkQueue(config.scheduler.maxOperationsInFlight, {
      onError: (id, kind, error) => this.logger.error(`${kind} of ${id} failed unexpectedly: ${reasonOf(error)}`),
      onChange: ({ running, waiting }) => {
        this.metrics.inFlight.set(running);
        this.metrics.queued.set(waiting);
      },
    });
  }

  /**
   * Queues an operation; it runs in the trace of the request that asked for it (one trace api → scheduler →
   * healthchecker), and its Kubernetes writes rank by when it was asked for (the first asked, the first served).
   * `reason`: a deletion's. `redrive`: why work nobody asked for just now is driven again (logged with the new owner).
   * `read`: the row as the caller read it (with its endpoints): the work starts from it when nothing changed
   * the row between that read and the claim, instead of reading it again.
   */
  submit(kind: OperationKind, liveLessonId: string, reason?: string, redrive?: string, read?: LiveLesson): EnqueueResult {
    const parent = context.active();
    const span = { tracer: 'antidote-scheduler', parent, attributes: { 'antidote.live_lesson.id': liveLessonId } };
    const ticket = admissionTicket();
    return this.queue.enqueue(liveLessonId, kind, (signal) =>
      withWritePriority(ticket, () =>
        inSpan(`live lesson ${kind}`, span, () => withCorrelation(liveLessonId, () => this.execute(kind, liveLessonId, signal, { reason, redrive, read }))),
      ),
    );
  }

  /** What is queued or running for a live lesson here. */
  pending(liveLessonId: string): OperationKind[] {
    return this.queue.kindsFor(liveLessonId);
  }

  /** Whether this replica holds the claim of a running operation on the live lesson. */
  holds(liveLessonId: string): boolean {
    return this.claims.holds(liveLessonId);
  }

  /**
   * Shutdown hands work back: running operations stop and their claims lapse at once, so another
   * replica's next sweep (within seconds) takes them over.
   */
  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.queue.close();
    this.claims.stop();
  }

  private async execute(
    kind: OperationKind,
    id: string,
    queueSignal: AbortSignal,
    { reason, redrive, read }: { reason?: string | undefined; redrive?: string | undefined; read?: LiveLesson | undefined },
  ): Promise<void> {
    const claimed = await this.data.work.claimAndLook(id, this.owner, this.claims.leaseMs);
    if (!claimed) {
      this.logger.log(`${kind} of ${id}: another scheduler is working on it`);
      return;
    }
    if (redrive) this.logger.log(`re-drive of live lesson ${id}: ${kind} (${redrive}), now owned by ${this.owner}`);
    // Stops with the queue (a delete, the shutdown) or the claim (lost); let go of both when the work ends.
    const linked = linkedSignal([queueSignal, this.claims.hold(id, kind)]);
    const signal = linked.signal;
    // The create's READY write releases the claim with it: nothing then to release after.
    let released = false;
    const claim: CreateClaim = {
      ticket: claimed.ticket,
      owner: this.owner,
      released: () => {
        released = true;
        this.claims.drop(id);
      },
    };
    // Every Kubernetes write of the lesson waiting for a slot listens to it: a large lesson has hundreds at once.
    setMaxListeners(WAITERS_PER_OPERATION, signal);
    let interrupted = false;
    try {
      // The row read before the claim, when nothing changed it since; else read now (the claim holder is then its only writer).
      const lesson = stillCurrent(read, claimed) ?? (await this.data.liveLessons.find(id));
      if (!lesson) return;
      if (lesson.deleteRequestedAt) await this.deletes.run(lesson, signal, reason);
      else if (kind === 'delete') this.logger.warn(`delete of ${id} skipped: its row records no deletion request`);
      else await this.provision(kind, lesson, signal, claim);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      interrupted = true;
      this.logger.warn(`${kind} of ${id} interrupted, the database away (${reasonOf(error)}); handed back to be driven again`);
    } finally {
      linked.dispose();
      this.claims.drop(id);
      // Work stopped by a shutdown or a database hiccup is handed back (lapsed now: the next sweep takes it
      // over); finished work is released. A claim neither reached (the database away) lapses after
      // claimLeaseSeconds; then another replica takes over.
      if (!released || interrupted) {
        const giveBack =
          interrupted || (this.closing && queueSignal.aborted) ? this.data.work.handBack(id, this.owner) : this.data.work.release(id, this.owner);
        await giveBack.catch((error: unknown) => this.logger.warn(`could not release the claim on ${id}: ${reasonOf(error)}`));
      }
    }
  }

  /** Runs the create or stage change; a failure fails the lesson, except the database going away (thrown: driven again). */
  private async provision(kind: OperationKind, lesson: LiveLesson, signal: AbortSignal, claim: CreateClaim): Promise<void> {
    if (lesson.error || lesson.status === LiveLessonStatus.READY) return;
    const modify = ModifyLessonOperation.isPending(lesson);
    if (kind === 'modify' && !modify && lesson.configuredStage !== undefined) return;
    let plan: LessonPlan | undefined;
    try {
      if (modify) await this.modifies.run(lesson, signal, (p) => (plan = p));
      else await this.creates.run(lesson, signal, (p) => (plan = p), claim);
    } catch (error) {
      if (signal.aborted) {
        this.logger.log(`${kind} of ${lesson.id} stopped: ${reasonOf(signal.reason)}`);
        return;
      }
      // A database hiccup is not the lesson's failure: the work is driven again once the database answers.
      if (isDatabaseUnavailable(error)) throw error;
      await this.fail(lesson, error, plan !== undefined && !(error instanceof LessonFailure && error.nothingToClean), signal);
    }
  }

  private async fail(lesson: LiveLesson, error: unknown, created: boolean, signal: AbortSignal): Promise<void> {
    await this.status.fail(lesson.id, reasonOf(error));
    if (!created || this.config.scheduler.keepFailedLessons) return;
    await this.deletes
      .cleanUpFailed(lesson, signal)
      .catch((cleanup: unknown) => this.logger.warn(`cleanup of failed ${lesson.id} failed: ${reasonOf(cleanup)}`));
  }
}

/**
 * The row read before the claim, if no write changed it since: every write of its state, stage, session or
 * endpoint list moves `updated_at`, and the claim's answer is compared with the read on what those writes
 * change as well (so two writes in one millisecond, or another replica's clock, cannot hide one). The
 * endpoints' addresses are written by the claim holder alone, and every create writes them again. The
 * deletion request, which does not move `updated_at`, is taken as the claim found it.
 */
function stillCurrent(read: LiveLesson | undefined, claimed: ClaimedRow): LiveLesson | undefined {
  if (!read) return undefined;
  const same =
    read.updatedAt.getTime() === claimed.updatedAt.getTime() &&
    read.sessionId === claimed.sessionId &&
    read.status === claimed.status &&
    read.error === claimed.error &&
    read.currentStage === claimed.currentStage &&
    read.configuredStage === claimed.configuredStage;
  if (!same) return undefined;
  const { deleteRequestedAt: _before, ...rest } = read;
  return claimed.deleteRequestedAt ? { ...rest, deleteRequestedAt: claimed.deleteRequestedAt } : rest;
}
