import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConfig, isAdaptivePool, type AntidoteConfig } from '@antidote/config';
import { RequestSubjects } from '@antidote/contracts';
import { DataManager, DuplicateError, type LiveLesson } from '@antidote/data';
import { BusClient } from '@antidote/messaging';
import { MetricsService } from '@antidote/runtime';
import { PoolOverrides } from './pool-overrides.js';

/** How long the api waits for the scheduler to label a claimed member's namespace. */
const BIND_TIMEOUT_MS = 5000;

export type ClaimResult = { kind: 'claimed'; lesson: LiveLesson } | { kind: 'raced'; liveLessonId: string } | { kind: 'empty' };

/**
 * Claims a READY warm-pool member of a lesson for a session (one atomic UPDATE: two api replicas never
 * get the same member), then asks the scheduler to label its namespace for the session, which also
 * refills the pool — without waiting for it: the claimed row is the truth and the learner's answer, the
 * labels follow it. Only lessons with a pool are tried. Counts hits, misses (metrics, and per minute in the
 * database: the demand adaptive pools are sized from) and claim time.
 */
@Injectable()
export class PoolClaimService {
  private readonly logger = new Logger('Pools');
  private readonly claims;
  private readonly claimSeconds;

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(BusClient) private readonly bus: BusClient,
    @Inject(MetricsService) metrics: MetricsService,
    @InjectConfig() private readonly config: AntidoteConfig,
    @Inject(PoolOverrides) private readonly overrides: PoolOverrides,
  ) {
    this.claims = metrics.counter({
      name: 'antidote_pool_claims_total',
      help: 'Requests for a pooled lesson: hit (a warm member claimed) or miss (built from nothing)',
      labelNames: ['lesson', 'result'],
    });
    this.claimSeconds = metrics.histogram({
      name: 'antidote_pool_claim_seconds',
      help: 'Time of one claim attempt in the database',
      labelNames: ['lesson'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    });
  }

  /**
   * A lesson with a pool: configured (adaptive ones even while empty: their misses are their demand) or
   * set by an operator (even to 0: drained, its requests miss and are counted until `antictl pool reset`;
   * the operators' sizes are held in memory, PoolOverrides).
   */
  async pooled(lessonSlug: string): Promise<boolean> {
    if (await this.overrides.has(lessonSlug)) return true;
    const pool = this.config.warmPools[lessonSlug];
    return pool !== undefined && (isAdaptivePool(pool) || pool.size > 0);
  }

  async claim(lessonSlug: string, sessionId: string): Promise<ClaimResult> {
    const stop = this.claimSeconds.startTimer({ lesson: lessonSlug });
    let lesson: LiveLesson | undefined;
    try {
      lesson = await this.data.pools.claim(lessonSlug, sessionId);
    } catch (error) {
      // Two requests of one session raced: the other one holds this lesson now.
      if (!(error instanceof DuplicateError)) throw error;
      const winner = await this.data.liveLessons.findForSession(sessionId, lessonSlug);
      if (!winner) throw error;
      return { kind: 'raced', liveLessonId: winner.id };
    } finally {
      stop();
    }
    const result = lesson ? 'hit' : 'miss';
    this.claims.inc({ lesson: lessonSlug, result });
    // The demand adaptive pools are sized from; a count lost is a sizing hint lost, not the learner's problem.
    void this.data.poolSizing
      .recordDemand(lessonSlug, result)
      .catch((error: unknown) => this.logger.warn(`could not count a ${result} of ${lessonSlug}: ${error instanceof Error ? error.message : String(error)}`));
    if (!lesson) return { kind: 'empty' };
    void this.bind(lesson.id);
    return { kind: 'claimed', lesson };
  }

  /** The row is bound already (the truth); the namespace labels follow. A scheduler that does not answer is logged, not the learner's problem (never throws). */
  private async bind(liveLessonId: string): Promise<void> {
    try {
      const reply = await this.bus.request(RequestSubjects.liveLessonBind, { liveLessonId }, { correlationId: liveLessonId, timeoutMs: BIND_TIMEOUT_MS });
      if (!reply.accepted) this.logger.warn(`the scheduler did not label ${liveLessonId} for its session: ${reply.reason ?? reply.code ?? 'refused'}`);
    } catch (error) {
      this.logger.warn(`the scheduler did not label ${liveLessonId} for its session: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
