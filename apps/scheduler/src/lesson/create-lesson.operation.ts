import { Inject, Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { endpointUp, LiveLessonStatus } from '@antidote/contracts';
import { DataManager, withEndpointState, type LiveLesson, type TicketState } from '@antidote/data';
import { Admission } from '../admission/admission.service.js';
import { LESSON_CLUSTER, type LessonCluster, type LessonPlan } from '../cluster/lesson-cluster.port.js';
import { LessonFailure, reasonOf } from './lesson-failure.error.js';
import { LessonPlanFactory } from './lesson-plan.factory.js';
import { ReachabilityClient } from './reachability.client.js';
import { StartEstimates, type StartShape } from './start-estimates.js';
import { StatusReporter } from './status-reporter.js';
import { allUp, unreachableReason } from './unreachable-reason.js';

/** The claim a create runs under: the admission ticket's state as the claim found it, and the claim's owner, told when the READY write released it. */
export interface CreateClaim {
  ticket: TicketState;
  owner: string;
  released: () => void;
}

/**
 * CREATE, from the row the api wrote to READY: admission → objects → BOOTING → pods Running (watch) →
 * reachable (healthchecker) → CONFIGURATION → configuration jobs → readyDelay → READY. A lab waiting in
 * the admission queue is left as it is (INITIALIZED): its create runs again once it is admitted. Idempotent: run again on
 * a half-done live lesson (redelivery, restart, another replica's crash) it adopts what exists and
 * carries on; status never moves backwards. BOOTING and CONFIGURATION carry when the start is expected
 * READY (from recent starts of its images and lesson), and a start that reached READY is kept for them.
 */
@Injectable()
export class CreateLessonOperation {
  private readonly logger = new Logger('Create');

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(LESSON_CLUSTER) private readonly cluster: LessonCluster,
    @Inject(LessonPlanFactory) private readonly plans: LessonPlanFactory,
    @Inject(ReachabilityClient) private readonly reachability: ReachabilityClient,
    @Inject(StatusReporter) private readonly status: StatusReporter,
    @Inject(StartEstimates) private readonly estimates: StartEstimates,
    @Inject(Admission) private readonly admission: Admission,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  /**
   * Runs the create; `onPlan` learns the namespace before anything is created (for cleanup on failure).
   * `claim`, when the caller holds the row's claim: the admission ticket's state as the claim found it
   * (else it is read), and whose claim the READY write releases (`released` is told when it did).
   */
  async run(initial: LiveLesson, signal: AbortSignal, onPlan: (plan: LessonPlan) => void, claim?: CreateClaim): Promise<void> {
    // The cluster-wide cap (`scheduler.maxLiveLessons`): the authoritative check, in the queue's fair order.
    if (initial.status === LiveLessonStatus.INITIALIZED && !(await this.admission.admit(initial, claim?.ticket))) return;
    const built = await this.plans.build(initial);
    onPlan(built);
    const hosts = await this.cluster.provision(built, signal);
    const shape: StartShape = {
      lessonSlug: initial.lessonSlug,
      images: built.liveLesson.endpoints.map((endpoint) => endpoint.image),
      readyDelayMs: built.lesson.readyDelay * 1000,
    };
    // The endpoints' addresses with BOOTING, one write; a create resumed past BOOTING writes them alone, if they changed.
    let lesson = this.status.moves(built.liveLesson, LiveLessonStatus.BOOTING)
      ? await this.status.advance(built.liveLesson, LiveLessonStatus.BOOTING, { estimatedReadyAt: await this.estimates.whenBooting(shape), hosts })
      : await this.recordHosts(built.liveLesson, hosts);
    // The endpoints now carry their Service addresses: the configuration jobs connect to them.
    const plan: LessonPlan = { ...built, liveLesson: lesson };
    const timeouts = this.config.timeouts;
    await this.cluster.waitForPods(plan, timeouts.podRunningSeconds * 1000, signal);
    await this.waitReachable(plan, signal);
    // This operation holds the claim and is the only writer of the status and endpoints until READY: the
    // lesson in hand (as read, plus what it wrote) is current, so no read before each step.
    lesson = await this.status.advance(lesson, LiveLessonStatus.CONFIGURATION, { estimatedReadyAt: await this.estimates.whenConfiguring(shape) });
    await this.cluster.configure(
      plan,
      lesson.currentStage,
      { oldJobsGoneMs: timeouts.oldJobsGoneSeconds * 1000, jobsMs: timeouts.configJobSeconds * 1000 },
      signal,
    );
    if (plan.lesson.readyDelay > 0) await sleep(plan.lesson.readyDelay * 1000, undefined, { signal });
    // READY, the stage now configured and the claim released (the work ends here): one write.
    const writes = lesson.status !== LiveLessonStatus.READY;
    const ready = await this.status.advance(lesson, LiveLessonStatus.READY, { configuredStage: lesson.currentStage, releasedBy: claim?.owner });
    if (writes) claim?.released();
    this.logger.log(`live lesson ${initial.id} (${initial.lessonSlug}) is READY`);
    // The READY write answered the endpoints' up times: the start is recorded from them.
    await this.estimates.record(ready);
  }

  /** The endpoints' addresses written, when they are not those the row records. */
  private async recordHosts(lesson: LiveLesson, hosts: ReadonlyMap<string, string>): Promise<LiveLesson> {
    const recorded = new Map(lesson.endpoints.flatMap((endpoint) => (endpoint.host ? [[endpoint.name, endpoint.host] as const] : [])));
    if ([...hosts].every(([name, host]) => recorded.get(name) === host)) return lesson;
    await this.data.liveLessons.updateEndpointHosts(lesson.id, hosts);
    return withEndpointState(lesson, { hosts });
  }

  private async waitReachable(plan: LessonPlan, signal: AbortSignal): Promise<void> {
    const seconds = this.config.timeouts.reachabilitySeconds;
    const reply = await this.reachability.waitReachable(plan.liveLesson.id, seconds * 1000, signal);
    // Ready, not only reachable: an endpoint with a readiness check is up once that check passed.
    if (allUp(reply)) return;
    const unreachable = reply.endpoints.filter((endpoint) => !endpointUp(endpoint));
    const logs = await this.cluster
      .podLogs(
        plan.namespace,
        unreachable.map((endpoint) => endpoint.name),
      )
      .catch((error: unknown) => {
        this.logger.warn(`no pod logs for the unreachable endpoints of ${plan.liveLesson.id}: ${reasonOf(error)}`);
        return '';
      });
    throw new LessonFailure(`${unreachableReason(unreachable, seconds)}${logs ? `\n${logs}` : ''}`);
  }
}
