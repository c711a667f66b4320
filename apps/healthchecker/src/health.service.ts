import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { defaultMaxListeners, setMaxListeners } from 'node:events';
import { linkedSignal } from '@antidote/concurrency';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import {
  ErrorCodes,
  EventSubjects,
  type EndpointHealth,
  type ErrorCode,
  type HealthCheckReply,
  type HealthCheckRequest,
  type HealthTarget,
  type WaitReachableReply,
  type WaitReachableRequest,
} from '@antidote/contracts';
import { DataManager, NotFoundError, type LiveLesson } from '@antidote/data';
import { BusClient } from '@antidote/messaging';
import { HealthMetrics } from './health.metrics.js';
import { AddressRanges } from './probes/address-ranges.js';
import { abortListenersOf, ProbeRunner } from './probes/probe-runner.js';

import { LessonWait } from './reachability/lesson-wait.js';

/** A live lesson's endpoint address lies outside `healthcheck.probeRanges` (or is link-local/metadata): nothing is probed. */
export const ADDRESS_NOT_ALLOWED = ErrorCodes.addressNotAllowed;

/**
 * How long a lesson's wait goes on past the deadline of the last request about it. The scheduler asks
 * again at once after each reply, or — a reply lost to a NATS restart — after its reply margin and retry
 * pause: well within this, so the wait (its endpoints up, its back-off) is still there when it does.
 */
export const WAIT_LINGER_MS = 30_000;

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
 * Probing for the scheduler (wait until reachable, recording each endpoint up and HealthyTests on the row
 * and publishing progress) and check-once, always for a live lesson in the database and only at addresses inside the
 * probe ranges. One ProbeRunner, so one concurrency limit, for everything.
 */
@Injectable()
export class HealthService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Health');
  readonly runner: ProbeRunner;
  private readonly ranges: AddressRanges;
  private readonly shutdown = new AbortController();
  /** The wait of each live lesson being started (by id), kept across the scheduler's attempts. */
  private readonly waits = new Map<string, LessonWait>();

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
    // The request's own signal: the shutdown's holds one listener for every request in flight, not one per probe.
    const link = linkedSignal([this.shutdown.signal]);
    setMaxListeners(Math.max(defaultMaxListeners, abortListenersOf(targets)), link.signal);
    const endpoints = await Promise.all(
      targets.map(async (target): Promise<EndpointHealth> => {
        if (!target.host) return unprobed(target, 'no address yet');
        const refusal = this.ranges.refusal(target.host);
        return refusal ? unprobed(target, `not probed: ${refusal}`) : this.runner.check(target, { timeoutMs: request.timeoutMs, signal: link.signal });
      }),
    ).finally(link.dispose);
    for (const endpoint of endpoints) this.metrics.observe(endpoint);
    return { endpoints };
  }

  /**
   * The state of the live lesson's start after `deadlineMs` (one attempt of the scheduler's), or as soon as
   * every endpoint is up. The wait behind it lives across attempts (see LessonWait); a new one, after a
   * restart or on another replica, resumes from the endpoints the row records up.
   */
  async waitReachable(request: WaitReachableRequest): Promise<WaitReachableReply> {
    const lesson = await this.liveLesson(request.liveLessonId);
    const targets = targetsOf(lesson);
    const missing = targets.filter((target) => !target.host).map((target) => target.name);
    if (missing.length > 0) throw new HealthRequestError(ErrorCodes.invalidState, `endpoints without an address yet: ${missing.join(', ')}`);
    const refused = targets.flatMap((target) => this.ranges.refusal(target.host) ?? []);
    if (refused.length > 0) throw new HealthRequestError(ErrorCodes.addressNotAllowed, `not probed: ${refused.join('; ')}`);
    const attemptMs = request.deadlineMs ?? this.config.timeouts.reachabilitySeconds * 1000;
    const keepUntil = Date.now() + attemptMs + WAIT_LINGER_MS;
    const wait = this.waitOf(lesson, targets, request.intervalMs ?? this.config.healthcheck.intervalMs, keepUntil);
    wait.keepUntil(keepUntil);
    const reply = await wait.reply(attemptMs);
    // Stopped by our own shutdown, not by the endpoints: say so, so the scheduler asks another replica.
    if (this.shutdown.signal.aborted && !reply.reachable) throw new HealthRequestError(ErrorCodes.unavailable, 'the healthchecker is shutting down');
    return reply;
  }

  /** The lesson's running wait, or a new one that starts from the endpoints its row records up. */
  private waitOf(lesson: LiveLesson, targets: HealthTarget[], intervalMs: number, keepUntil: number): LessonWait {
    const running = this.waits.get(lesson.id);
    if (running && !running.stopped) return running;
    const alreadyUp = new Set(lesson.endpoints.filter((endpoint) => endpoint.upAt).map((endpoint) => endpoint.name));
    const wait = new LessonWait(this.runner, targets, alreadyUp, {
      keepUntil,
      intervalMs,
      signal: this.shutdown.signal,
      onProbe: (health) => this.metrics.observe(health),
      onUp: (endpoint) => this.recordUp(lesson.id, endpoint),
    });
    this.waits.set(lesson.id, wait);
    void wait.finished.then(() => this.waits.get(lesson.id) === wait && this.waits.delete(lesson.id));
    return wait;
  }

  /** The endpoint's up time on the row and the lesson's health (never lower), then the progress event learners see. */
  private async recordUp(id: string, endpoint: string): Promise<void> {
    try {
      const { healthy, total } = await this.data.liveLessons.recordEndpointUp(id, endpoint);
      this.bus.publish(EventSubjects.healthProgressed, { liveLessonId: id, endpoint, healthy, total, at: new Date().toISOString() }, id);
    } catch (error) {
      // The reply carries the truth; a failed write only delays the view (and a restarted healthchecker probes it again).
      this.logger.warn(`could not record ${endpoint} of ${id} up: ${error instanceof Error ? error.message : String(error)}`);
    }
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

const unprobed = (target: HealthTarget, error: string): EndpointHealth => ({
  name: target.name,
  host: target.host,
  reachable: false,
  latencyMs: 0,
  probes: [],
  error,
});
