import { Controller, Inject, Logger } from '@nestjs/common';
import {
  DELETION_NOT_REQUESTED,
  QueueGroups,
  RequestSubjects,
  type BindLiveLessonRequest,
  type CreateLiveLessonRequest,
  type DeleteLiveLessonRequest,
  type KeepAliveLiveLessonRequest,
  type ModifyLiveLessonRequest,
  SchedulerRejections,
  type SchedulerReply,
} from '@antidote/contracts';
import { DataManager } from '@antidote/data';
import { OnRequest, RequestPayload } from '@antidote/messaging';
import { LessonScheduler } from './lesson-scheduler.service.js';
import { PoolBinder } from './pool/pool-binder.service.js';

const notFound = (id: string): SchedulerReply => ({ accepted: false, code: SchedulerRejections.notFound, reason: `Unable to find liveLesson ${id}` });

/**
 * The scheduler's requests. Each reply says only "accepted" (queued, or already done or underway) or
 * why not; progress follows as status events. The database row is the truth, so a redelivered or
 * duplicated request changes nothing,
 * and a delete happens only for a row that records its deletion request.
 */
@Controller()
export class SchedulerController {
  private readonly logger = new Logger('SchedulerController');

  constructor(
    @Inject(LessonScheduler) private readonly scheduler: LessonScheduler,
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(PoolBinder) private readonly pools: PoolBinder,
  ) {}

  /** A learner claimed a warm-pool member: label its namespace for the session; the pool refills. */
  @OnRequest(RequestSubjects.liveLessonBind, QueueGroups.scheduler)
  async bind(@RequestPayload(RequestSubjects.liveLessonBind) request: BindLiveLessonRequest): Promise<SchedulerReply> {
    return this.pools.bind(request.liveLessonId);
  }

  @OnRequest(RequestSubjects.liveLessonCreate, QueueGroups.scheduler)
  async create(@RequestPayload(RequestSubjects.liveLessonCreate) request: CreateLiveLessonRequest): Promise<SchedulerReply> {
    // The row with its endpoints, read once: checked here, and the work starts from it if nothing changes it meanwhile.
    const lesson = await this.data.liveLessons.find(request.liveLessonId);
    if (!lesson) return notFound(request.liveLessonId);
    if (lesson.error) return { accepted: false, code: SchedulerRejections.failed, reason: lesson.failureReason ?? 'the live lesson failed' };
    this.scheduler.submit('create', lesson.id, undefined, undefined, lesson);
    return { accepted: true };
  }

  @OnRequest(RequestSubjects.liveLessonModify, QueueGroups.scheduler)
  async modify(@RequestPayload(RequestSubjects.liveLessonModify) request: ModifyLiveLessonRequest): Promise<SchedulerReply> {
    const lesson = await this.data.liveLessons.find(request.liveLessonId);
    if (!lesson) return notFound(request.liveLessonId);
    if (lesson.error) return { accepted: false, code: SchedulerRejections.failed, reason: lesson.failureReason ?? 'the live lesson failed' };
    this.scheduler.submit('modify', lesson.id, undefined, undefined, lesson);
    return { accepted: true };
  }

  @OnRequest(RequestSubjects.liveLessonDelete, QueueGroups.scheduler)
  async delete(@RequestPayload(RequestSubjects.liveLessonDelete) request: DeleteLiveLessonRequest): Promise<SchedulerReply> {
    const lesson = await this.data.liveLessons.find(request.liveLessonId);
    if (!lesson) return { accepted: true };
    // The row is the request: whoever may delete records it there first; a message alone deletes nothing.
    if (!lesson.deleteRequestedAt) {
      this.logger.warn(`refused a delete of ${lesson.id}: its row records no deletion request`);
      return { accepted: false, code: DELETION_NOT_REQUESTED, reason: `live lesson ${lesson.id} has no deletion request recorded; delete it through the API` };
    }
    this.scheduler.submit('delete', request.liveLessonId, request.reason);
    return { accepted: true };
  }

  @OnRequest(RequestSubjects.liveLessonKeepAlive, QueueGroups.scheduler)
  async keepAlive(@RequestPayload(RequestSubjects.liveLessonKeepAlive) request: KeepAliveLiveLessonRequest): Promise<SchedulerReply> {
    const lesson = await this.data.liveLessons.find(request.liveLessonId);
    if (!lesson) return notFound(request.liveLessonId);
    await this.data.liveLessons.updateLastActiveTime(lesson.id);
    await this.data.liveSessions
      .touch(lesson.sessionId)
      .catch((error: unknown) => this.logger.warn(`could not touch session ${lesson.sessionId}: ${error instanceof Error ? error.message : String(error)}`));
    return { accepted: true };
  }
}
