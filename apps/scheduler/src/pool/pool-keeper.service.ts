import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { LiveLessonStatus } from '@antidote/contracts';
import type { Image, Lesson } from '@antidote/curriculum';
import { DataManager, poolSessionId, randomId, withFreshId, type LiveLesson, type NewLiveLesson } from '@antidote/data';
import { liveLessonRecord } from '@antidote/lesson-objects';
import { ReadinessRegistry } from '@antidote/runtime';
import { reasonOf } from '../lesson/lesson-failure.error.js';
import { LessonScheduler } from '../lesson-scheduler.service.js';
import { SchedulerMetrics } from '../scheduler.metrics.js';
import { planPools, type PoolPlan, type PoolTarget } from './pool-plan.js';
import { PoolSizer } from './pool-sizer.js';
import { isStaleMember } from './stale-member.js';

/** As the api's: public hostnames carry a random token, not the live lesson id. */
const HOST_TOKEN_LENGTH = 16;

interface PooledLesson {
  lesson: Lesson;
  images: ReadonlyMap<string, Image>;
}

/**
 * Keeps each warm pool (`warmPools`, sized by PoolSizer) full: a pass plans (planPools) from the database, retires members
 * (recorded deletion, then the normal DELETE) and writes new members' rows, each built by the normal
 * CREATE through the work queue. Passes run every `scheduler.poolIntervalSeconds` and after each claim;
 * one at a time per replica. With several scheduler replicas a pool may overshoot for a moment; the
 * next pass retires the surplus.
 */
@Injectable()
export class PoolKeeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Pools');
  private readonly stopping = new AbortController();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private readonly sizer: PoolSizer;

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(LessonScheduler) private readonly scheduler: Pick<LessonScheduler, 'submit'>,
    @Inject(SchedulerMetrics) private readonly metrics: SchedulerMetrics,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {
    this.sizer = new PoolSizer(data, config);
  }

  onApplicationBootstrap(): void {
    void this.start();
  }

  onApplicationShutdown(): void {
    this.stopping.abort();
    clearInterval(this.timer);
  }

  /** Asks for a pass now (or right after the one running). */
  refill(): void {
    if (this.stopping.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().finally(() => (this.running = undefined));
  }

  private async start(): Promise<void> {
    try {
      await this.readiness.waitUntilReady(undefined, 250, this.stopping.signal);
    } catch {
      return;
    }
    this.refill();
    this.timer = setInterval(() => this.refill(), this.config.scheduler.poolIntervalSeconds * 1000);
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      await this.pass().catch((error: unknown) => this.logger.warn(`warm pool pass failed: ${reasonOf(error)}`));
    } while (this.again && !this.stopping.signal.aborted);
  }

  /** One pass: plan, retire, build. Returns the plan it carried out. */
  async pass(now = new Date()): Promise<PoolPlan> {
    const members = await this.data.pools.members();
    const pools = await this.sizer.targets(members, now);
    const slugs = new Set([...Object.keys(pools), ...members.map((member) => member.lessonSlug)]);
    const lessons = await this.pooledLessons(slugs);
    const plan = planPools({
      pools,
      members: members.map((member) => ({
        ...member,
        deleting: member.deleteRequestedAt !== undefined,
        stale: this.isStale(member, lessons.get(member.lessonSlug)),
      })),
      lessons: new Set(lessons.keys()),
      now,
      // What holds capacity (`scheduler.maxLiveLessons`), pool members included, and who waits for it.
      capacity: { cap: this.config.scheduler.maxLiveLessons, used: await this.data.admission.holding(), waiting: await this.data.admission.waitingCount() },
    });
    for (const { id, lessonSlug, reason } of plan.retire) {
      if (!(await this.data.pools.retire(id))) continue;
      this.metrics.poolRetired.inc({ lesson: lessonSlug, reason });
      this.scheduler.submit('delete', id, `warm pool: ${reason}`);
    }
    for (const { lessonSlug, count } of plan.create) {
      const pooled = lessons.get(lessonSlug);
      for (let i = 0; pooled && i < count; i++) this.scheduler.submit('create', (await this.createMember(pooled)).id);
    }
    this.recordSizes(pools, await this.data.pools.members());
    if (plan.retire.length + plan.create.length > 0) {
      this.logger.log(
        `warm pools: ${plan.create
          .map((c) => `+${c.count} ${c.lessonSlug}`)
          .concat(plan.retire.map((r) => `-${r.id} (${r.reason})`))
          .join(', ')}`,
      );
    }
    return plan;
  }

  private async pooledLessons(slugs: Iterable<string>): Promise<Map<string, PooledLesson>> {
    const found = new Map<string, PooledLesson>();
    for (const slug of slugs) {
      const lesson = await this.data.curriculum.findLesson(slug);
      if (!lesson) continue;
      const { images, missing } = await this.data.curriculum.imagesOf(lesson);
      if (missing.length === 0) found.set(slug, { lesson, images });
    }
    return found;
  }

  private record(pooled: PooledLesson, id: string): NewLiveLesson {
    return liveLessonRecord(pooled.lesson, {
      id,
      sessionId: poolSessionId(id),
      instanceId: this.config.instanceId,
      hepsDomain: this.config.hepsDomain,
      hostToken: randomId(HOST_TOKEN_LENGTH),
      stage: 0,
      imageOf: (slug) => pooled.images.get(slug),
    });
  }

  private isStale(member: LiveLesson, pooled: PooledLesson | undefined): boolean {
    return pooled !== undefined && isStaleMember(member, this.record(pooled, member.id));
  }

  private createMember(pooled: PooledLesson): Promise<LiveLesson> {
    return withFreshId(
      (id) => this.data.liveLessons.create({ ...this.record(pooled, id), pool: true }),
      () => new Error('no free live lesson id for a warm-pool member'),
    );
  }

  private recordSizes(pools: Readonly<Record<string, PoolTarget>>, members: readonly LiveLesson[]): void {
    this.metrics.poolMembers.reset();
    this.metrics.poolTarget.reset();
    for (const [slug, { size }] of Object.entries(pools)) {
      this.metrics.poolTarget.set({ lesson: slug }, size);
      const live = members.filter((member) => member.lessonSlug === slug && !member.error && !member.deleteRequestedAt);
      const ready = live.filter((member) => member.status === LiveLessonStatus.READY).length;
      this.metrics.poolMembers.set({ lesson: slug, state: 'ready' }, ready);
      this.metrics.poolMembers.set({ lesson: slug, state: 'building' }, live.length - ready);
    }
  }
}
