import { Inject, Injectable } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { DataManager, type AdmissionRequest, type CapacityHolder, type EnqueueResult } from '@antidote/data';
import { MetricsService } from '@antidote/runtime';
import type { EntityManager } from 'typeorm';
import { queueFull } from './admission.errors.js';
import { estimateWaits } from './wait-estimate.js';

/** A waiting lab: its place in line (1 = next), how many wait, and the estimated seconds until it starts being built. */
export interface Standing {
  liveLessonId: string;
  position: number;
  waiting: number;
  estimatedWaitSeconds?: number;
}

/** Estimates are computed for the whole line at most this often per api process. */
const ESTIMATE_TTL_MS = 2000;
/** The lifetimes estimates learn from: the most recent this many, of the last day. */
const HISTORY_MS = 24 * 60 * 60_000;
const HISTORY_SAMPLES = 200;
/** A lab being deleted, or an unclaimed warm-pool member while learners wait, ends about this soon. */
const SOON_MS = 10_000;
/** Retry-After of a full waiting room when no estimate is known. */
const DEFAULT_RETRY_SECONDS = 60;

/**
 * The api's side of the waiting room: a new lab is admitted at once while there is capacity, else put
 * in line (or refused when `scheduler.maxQueued` wait already); a waiting lab's place and estimated wait
 * (`EstimatedWaitSeconds`, until it starts being built — not its boot time) come from the one queue in
 * the database. Admission itself (the drain) is the scheduler's.
 */
@Injectable()
export class LabAdmission {
  private readonly decisions;
  private schedule?: { at: number; waits: (number | undefined)[] };

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(MetricsService) metrics: MetricsService,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {
    this.decisions = metrics.counter({
      name: 'antidote_admission_requests_total',
      help: 'New labs: admitted at once, queued, or refused with the waiting room full',
      labelNames: ['decision'],
    });
  }

  /** Refuses before anything is written when every lab is in use and the line is full (the authoritative check is in `enqueue`). */
  async refuseWhenFull(): Promise<void> {
    const { maxLiveLessons: cap, maxQueued } = this.config.scheduler;
    if (cap <= 0 || (await this.data.admission.waitingCount()) < maxQueued || (await this.data.admission.holding()) < cap) return;
    throw await this.full();
  }

  /**
   * Admits or queues a new lab, its row written by `writeLab` in the same transaction; a full line
   * throws 429, nothing written.
   */
  async enqueue(request: AdmissionRequest, writeLab: (manager: EntityManager) => Promise<unknown>): Promise<EnqueueResult> {
    const { maxLiveLessons: cap, maxQueued } = this.config.scheduler;
    const result = await this.data.admission.enqueue(request, { cap, maxQueued }, writeLab);
    this.decisions.inc({ decision: result.kind });
    if (result.kind === 'full') throw await this.full();
    return result;
  }

  /** Where a waiting lab stands, or undefined when it is not waiting. `seen`: someone is asking for it (it is not abandoned). */
  async standing(liveLessonId: string, seen = true): Promise<Standing | undefined> {
    const place = await this.data.admission.position(liveLessonId);
    if (!place) return undefined;
    if (seen) await this.data.admission.seen([liveLessonId]);
    return { liveLessonId, ...place, ...this.estimated((await this.waits(place.waiting))[place.position - 1]) };
  }

  /** Someone is following these labs (an event stream): they are not abandoned. */
  async seen(liveLessonIds: readonly string[]): Promise<void> {
    await this.data.admission.seen(liveLessonIds);
  }

  /** Every waiting lab, next first. */
  async line(): Promise<(Standing & { client: string; lessonSlug: string; enqueuedAt: Date; lastSeenAt: Date })[]> {
    const tickets = await this.data.admission.waiting();
    const waits = await this.waits(tickets.length);
    return tickets.map((ticket, i) => ({
      liveLessonId: ticket.liveLessonId,
      position: i + 1,
      waiting: tickets.length,
      ...this.estimated(waits[i]),
      client: ticket.client,
      lessonSlug: ticket.lessonSlug,
      enqueuedAt: ticket.enqueuedAt,
      lastSeenAt: ticket.lastSeenAt,
    }));
  }

  private estimated = (seconds: number | undefined): { estimatedWaitSeconds?: number } => (seconds === undefined ? {} : { estimatedWaitSeconds: seconds });

  private async full(): Promise<Error> {
    const [next] = await this.waits(1);
    return queueFull(this.config.scheduler.maxQueued, Math.max(5, next ?? DEFAULT_RETRY_SECONDS));
  }

  /** Estimated waits of positions 1..count, from the labs holding capacity and recent lifetimes (cached briefly). */
  private async waits(count: number): Promise<(number | undefined)[]> {
    const now = Date.now();
    if (this.schedule && now - this.schedule.at < ESTIMATE_TTL_MS && this.schedule.waits.length >= count) return this.schedule.waits;
    const waits = await estimateLine(this.data, this.config, now, Math.max(count, 1));
    this.schedule = { at: now, waits };
    return waits;
  }
}

/** The latest a lab can end: idle expiry (`liveLessonTTL` after its last activity), never in a persistent session. */
function expiryOf(holder: CapacityHolder, now: number, ttlMinutes: number): number {
  if (holder.deleting || holder.pool) return now + SOON_MS;
  if (holder.persistent) return Number.POSITIVE_INFINITY;
  return holder.lastActiveAt.getTime() + ttlMinutes * 60_000;
}

/** Estimated waits of positions 1..positions at `now`: the labs holding capacity, the recent lifetimes, `estimateWaits`. */
export async function estimateLine(
  data: DataManager,
  config: Pick<AntidoteConfig, 'liveLessonTTL' | 'scheduler'>,
  now: number,
  positions: number,
): Promise<(number | undefined)[]> {
  const [holders, history] = await Promise.all([data.admissionStats.holders(), data.admissionStats.history(new Date(now - HISTORY_MS), HISTORY_SAMPLES)]);
  return estimateWaits({
    now,
    cap: config.scheduler.maxLiveLessons,
    holders: holders.map((holder) => ({ since: holder.since.getTime(), expiresAt: expiryOf(holder, now, config.liveLessonTTL) })),
    lifetimes: history.lifetimes.map((seconds) => seconds * 1000),
    positions,
  });
}
