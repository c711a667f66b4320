import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { LiveLessonStatus, RequestSubjects } from '@antidote/contracts';
import type { Lesson } from '@antidote/curriculum';
import { DataManager, DuplicateError, NotFoundError, randomId, withFreshId, type LiveLesson, type LiveLessonState } from '@antidote/data';
import { liveLessonRecord } from '@antidote/lesson-objects';
import { CurriculumCache } from '@antidote/runtime';
import { AddressRates } from '../admission/address-rates.service.js';
import { LabAdmission } from '../admission/lab-admission.service.js';
import { SessionLabLimit } from '../admission/session-lab-limit.service.js';
import { failedPrecondition, internal, invalidArgument, notFound } from '../http/gateway.error.js';
import type { LiveLessonRequest } from './live-lesson.dto.js';
import { PoolClaimService } from './pool-claim.service.js';
import { SchedulerHandoff } from './scheduler-handoff.service.js';

/** 16 characters of [a-z0-9]: about 82 bits. */
const HOST_TOKEN_LENGTH = 16;

/**
 * POST /exp/livelesson (reference §4.4): validates, then either returns the existing live lesson of this
 * session and lesson (changing its stage, or keeping it alive) or creates a new one and asks the
 * scheduler to build it. The row is written first, so a request the api accepted is never lost. A new
 * lab needs a place in its session (`liveLessonLimit`, or `replaceOldest`), a token of its address's
 * new-lab rate, and capacity: when every lab is in use it waits in line (INITIALIZED) instead.
 */
@Injectable()
export class LiveLessonRequestService {
  private readonly logger = new Logger('LiveLessons');

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(SchedulerHandoff) private readonly handoff: SchedulerHandoff,
    @Inject(PoolClaimService) private readonly pools: PoolClaimService,
    @Inject(SessionLabLimit) private readonly places: SessionLabLimit,
    @Inject(AddressRates) private readonly rates: AddressRates,
    @Inject(LabAdmission) private readonly admission: LabAdmission,
    @Inject(CurriculumCache) private readonly curriculum: CurriculumCache,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  /** `client`: the address the request came from (rate limits, fairness of the waiting room). */
  async request(body: LiveLessonRequest, client: string): Promise<string> {
    if (!body.sessionId) throw invalidArgument('Session ID cannot be nil', 'sessionId');
    if (!body.lessonSlug) throw invalidArgument('Lesson Slug cannot be nil', 'lessonSlug');
    // The session's activity, its existence and its labs (this lesson's, and those that take its places), in one statement.
    const sessionId = body.sessionId;
    const labs = await this.data.liveLessons.touchSession(sessionId);
    if (!labs) throw invalidArgument(`Invalid session ID ${body.sessionId}`, 'sessionId');
    // The lesson and its images from the curriculum held in memory (read once per import).
    const lesson = await this.curriculum.lesson(body.lessonSlug);
    if (!lesson) throw notFound(`Couldn't find lesson slug '${body.lessonSlug}'`);
    if (body.lessonStage >= lesson.stages.length) throw invalidArgument('Invalid stage ID for this lesson', 'lessonStage');
    const existing = labs.find((lab) => lab.lessonSlug === lesson.slug);
    if (existing && !(existing.error && !this.config.scheduler.keepFailedLessons)) return this.reuse(existing, lesson, body.lessonStage);
    if (existing) await this.data.liveLessons.delete(existing.id);
    const inTheWay = await this.places.inTheWay(labs, body.replaceOldest);
    await this.rates.take('lab', client);
    if (inTheWay.length > 0) {
      // Nothing is ended for a request that would be refused anyway.
      await this.admission.refuseWhenFull();
      await this.places.end(inTheWay);
    }
    if (await this.pools.pooled(lesson.slug)) {
      const claim = await this.pools.claim(lesson.slug, sessionId);
      // A warm member is READY at stage 0: answered at once (the claim set its activity time), or moved to
      // the asked stage like any live lesson.
      if (claim.kind === 'claimed')
        return claim.lesson.currentStage === body.lessonStage ? claim.lesson.id : this.reuse(claim.lesson, lesson, body.lessonStage);
      if (claim.kind === 'raced') return claim.liveLessonId;
    }
    return this.create(sessionId, lesson, body.lessonStage, client);
  }

  /**
   * A keep-alive that never creates a lab: renews the live lesson `id` when it exists, is this session's
   * and is not being deleted, and answers its state; otherwise "not found" (another session's lab looks
   * the same as a missing one). The stage is left as it is, so pages on different stages never flip it.
   */
  async renew(id: string, sessionId: string): Promise<LiveLessonState> {
    const lesson = await this.data.liveLessons.find(id);
    if (!lesson || lesson.sessionId !== sessionId || lesson.deleteRequestedAt) throw notFound('livelesson not found');
    await this.data.liveLessons.updateLastActiveTime(id).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw notFound('livelesson not found');
      throw error;
    });
    await this.data.liveSessions
      .touch(sessionId)
      .catch((error: unknown) => this.logger.warn(`could not touch session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`));
    // A lab waiting in line: its learner is still there.
    if (lesson.status === LiveLessonStatus.INITIALIZED) await this.data.admission.seen([id]);
    return lesson;
  }

  private async reuse(existing: LiveLesson, lesson: Lesson, stage: number): Promise<string> {
    if (existing.error) throw failedPrecondition('Sorry, this lesson is having some problems. Please try again later');
    // Ended (replaced, killed, expired) but not gone yet: its id would vanish under the learner.
    if (existing.deleteRequestedAt) throw failedPrecondition('This lab is being ended; ask again in a few seconds to start a new one');
    if (existing.currentStage !== stage) {
      const guide = lesson.stages[stage];
      const changed = await this.data.liveLessons.changeStage(existing.id, stage, { guideType: guide.guideType, guideContents: guide.guideContents });
      if (!changed) throw failedPrecondition("LiveLesson is currently busy. Can't make changes yet. Try later");
      await this.tell(RequestSubjects.liveLessonModify, { liveLessonId: existing.id, stage });
    } else {
      await this.data.liveLessons.updateLastActiveTime(existing.id);
      if (existing.status === LiveLessonStatus.INITIALIZED) {
        // A keep-alive of a lab waiting in line: its learner is still there.
        await this.data.admission.seen([existing.id]);
        // Asked again before any scheduler took it up (the api that accepted it may have died before telling one): tell one now.
        if (!existing.claimedBy) await this.tell(RequestSubjects.liveLessonCreate, { liveLessonId: existing.id });
      }
    }
    return existing.id;
  }

  private async create(sessionId: string, lesson: Lesson, stage: number, client: string): Promise<string> {
    const { images, missing } = await this.curriculum.imagesOf(lesson);
    if (missing.length > 0) throw internal('Unable to initialize new livelesson');
    let id: string;
    try {
      // The row and its place in line, one transaction: a full line (429) leaves nothing behind.
      id = await withFreshId(
        async (fresh) => {
          const record = liveLessonRecord(lesson, {
            id: fresh,
            sessionId,
            instanceId: this.config.instanceId,
            hepsDomain: this.config.hepsDomain,
            // Public hostnames carry this, not the id: the id unlocks the device logins (GET /exp/livelesson/{id}).
            hostToken: randomId(HOST_TOKEN_LENGTH),
            stage,
            imageOf: (slug) => images.get(slug),
          });
          await this.admission.enqueue({ liveLessonId: fresh, sessionId, client, lessonSlug: lesson.slug }, (manager) =>
            this.data.liveLessons.create(record, manager),
          );
          return fresh;
        },
        () => internal('Unable to initialize new livelesson'),
      );
    } catch (error) {
      // Two requests raced for the same (session, lesson): the other one won; answer with its live lesson.
      if (!(error instanceof DuplicateError)) throw error;
      const winner = await this.data.liveLessons.findForSession(sessionId, lesson.slug);
      if (!winner) throw error;
      return winner.id;
    }
    // Admitted or waiting, the scheduler hears of it: it builds an admitted lab, and admits waiting ones as capacity frees.
    await this.tell(RequestSubjects.liveLessonCreate, { liveLessonId: id });
    return id;
  }

  /**
   * Tells the scheduler. If none answers, the request stays accepted: the row is in the database, the
   * handoff sends it again, and the scheduler's re-drive picks it up regardless. A scheduler that refuses
   * is a real error.
   */
  private async tell(...request: Parameters<SchedulerHandoff['tell']>): Promise<void> {
    const reply = await this.handoff.tell(...request);
    if (reply && !reply.accepted) throw failedPrecondition(reply.reason ?? 'the scheduler refused the request');
  }
}
