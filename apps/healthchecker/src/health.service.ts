import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { ErrorCodes, EventSubjects, type EndpointHealth, type ErrorCode, type HealthCheckReply, type HealthCheckRequest, type HealthTarget, type WaitReachableReply, type WaitReachableRequest } from '@antidote/contracts';
import { DataManager, NotFoundError, type LiveLesson } from '@antidote/data';
import { BusClient } from '@antidote/messaging';
import { HealthMetrics } from './health.metrics.js';
import { AddressRanges } from './probes/address-ranges.js';
import { ProbeRunner } from './probes/probe-runner.js';

/** A live lesson's endpoint address lies outside `healthcheck.probeRanges` (or is link-local/metadata): nothing is probed. */
export const ADDRESS_NOT_ALLOWED = ErrorCodes.addressNotAllowed;
import { waitUntilReachable } from './reachability/wait-until-reachable.js';

/** The endpoints of a live lesson as probe targets (hosts are the Service addresses the scheduler wrote). */
export function targetsOf(lesson: LiveLesson): HealthTarget[] {
  return lesson.endpoints.map((endpoint) => ({
    name: endpoint.name,
    host: endpoint.host ?? '',
    ports: endpoint.ports,
    presentations: endpoint.presentations.map(({ name, port, type }) => ({ name, port, type })),
    sshUser: endpoint.sshUser || undefined,
    sshPassword: endpoint.sshPassword || undefined,
    ...(endpoint.readiness ? { readiness: endpoint.readiness } : {}),
  }));
}

/** Errors with a code the bus turns into replies. */
class HealthRequestError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Probing for the scheduler (wait until reachable, updating HealthyTests/TotalTests and publishing
 * progress) and check-once, always for a live lesson in the database and only at addresses inside the
 * probe ranges. One ProbeRunner, so one concurrency limit, for everything.
 */
@Injectable()
export class HealthService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Health');
  readonly runner: ProbeRunner;
  private readonly ranges: AddressRanges;
  private readonly shutdown = new AbortController();

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(BusClient) private readonly bus: BusClient,
    @Inject(HealthMetrics) private readonly metrics: HealthMetrics,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {
    this.runner = new ProbeRunner(config.healthcheck);
    this.ranges = new AddressRanges(config.healthcheck.probeRanges);
  }

  async check(request: HealthCheckRequest): Promise<HealthCheckReply> {
    const targets = targetsOf(await this.liveLesson(request.liveLessonId));
    const endpoints = await Promise.all(
      targets.map(async (target): Promise<EndpointHealth> => {
        if (!target.host) return unprobed(target, 'no address yet');
        const refusal = this.ranges.refusal(target.host);
        return refusal ? unprobed(target, `not probed: ${refusal}`) : this.runner.check(target, { timeoutMs: request.timeoutMs, signal: this.shutdown.signal });
      }),
    );
    for (const endpoint of endpoints) this.metrics.observe(endpoint);
    return { endpoints };
  }

  async waitReachable(request: WaitReachableRequest): Promise<WaitReachableReply> {
    const lesson = await this.liveLesson(request.liveLessonId);
    const targets = targetsOf(lesson);
    const missing = targets.filter((target) => !target.host).map((target) => target.name);
    if (missing.length > 0) throw new HealthRequestError(ErrorCodes.invalidState, `endpoints without an address yet: ${missing.join(', ')}`);
    const refused = targets.flatMap((target) => this.ranges.refusal(target.host) ?? []);
    if (refused.length > 0) throw new HealthRequestError(ErrorCodes.addressNotAllowed, `not probed: ${refused.join('; ')}`);
    await this.data.liveLessons.updateTests(lesson.id, 0, targets.length);
    const reply = await waitUntilReachable(this.runner, targets, {
      deadlineMs: request.deadlineMs ?? this.config.timeouts.reachabilitySeconds * 1000,
      intervalMs: request.intervalMs ?? this.config.healthcheck.intervalMs,
      signal: this.shutdown.signal,
      onProgress: async (endpoint, healthy, total) => {
        // The progress shown to learners; the reply carries the truth, so a failed write only delays the view.
        await this.data.liveLessons.updateTests(lesson.id, healthy, total).catch((error: unknown) => this.logger.warn(`could not record health progress of ${lesson.id} (${healthy}/${total}): ${error instanceof Error ? error.message : String(error)}`));
        this.bus.publish(EventSubjects.healthProgressed, { liveLessonId: lesson.id, endpoint, healthy, total, at: new Date().toISOString() }, lesson.id);
      },
    });
    for (const endpoint of reply.endpoints) this.metrics.observe(endpoint);
    // Stopped by our own shutdown, not by the endpoints: say so, so the scheduler asks another replica.
    if (this.shutdown.signal.aborted && !reply.reachable) throw new HealthRequestError(ErrorCodes.unavailable, 'the healthchecker is shutting down');
    return reply;
  }

  beforeApplicationShutdown(): void {
    this.shutdown.abort(new Error('shutting down'));
  }

  private async liveLesson(id: string): Promise<LiveLesson> {
    const lesson = await this.data.liveLessons.find(id);
    if (!lesson) throw new NotFoundError(`Unable to find liveLesson ${id}`);
    return lesson;
  }
}

const unprobed = (target: HealthTarget, error: string): EndpointHealth => ({ name: target.name, host: target.host, reachable: false, latencyMs: 0, probes: [], error });
