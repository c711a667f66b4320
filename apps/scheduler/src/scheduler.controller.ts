import { Controller, Inject, Logger } from '@nestjs/common';
import {
  QueueGroups,
  RequestSubjects,
  type CreateLiveLessonRequest,
  type DeleteLiveLessonRequest,
  type KeepAliveLiveLessonRequest,
  type ModifyLiveLessonRequest,
  type SchedulerReply,
} from '@antidote/contracts';
import { DataManager } from '@antidote/data';
import { OnRequest, RequestPayload } from '@antidote/messaging';
import { LessonScheduler } from './lesson-scheduler.service.js';

const notFound = (id: string): SchedulerReply => ({ accepted: false, code: 'NOT_FOUND', reason: `Unable to find liveLesson ${id}` });

/**
 * The scheduler's requests. Each reply says only "accepted" (queued, or already done or underway) or
 * why not; progress follows as status events. The database row is the truth, so a redelivered or
 * duplicated request changes nothing.
 */
@Controller()
export class SchedulerController {
  private readonly logger = new Logger('Scheduler');

  constructor(
    @Inject(LessonScheduler) private readonly scheduler: LessonScheduler,
    @Inject(DataManager) private readonly data: DataManager,
  ) {}

  @OnRequest(RequestSubjects.liveLessonCreate, QueueGroups.scheduler)
  async create(@RequestPayload(RequestSubjects.liveLessonCreate) request: CreateLiveLessonRequest): Promise<SchedulerReply> {
    const lesson = await this.data.liveLessons.find(request.liveLessonId);
    if (!lesson) return notFound(request.liveLessonId);
    if (lesson.error) return { accepted: false, code: 'FAILED', reason: lesson.failureReason ?? 'the live lesson failed' };
    this.scheduler.submit('create', lesson.id);
    return { accepted: true };
  }

  @OnRequest(RequestSubjects.liveLessonModify, QueueGroups.scheduler)
  async modify(@RequestPayload(RequestSubjects.liveLessonModify) request: ModifyLiveLessonRequest): Promise<SchedulerReply> {
    const lesson = await this.data.liveLessons.find(request.liveLessonId);
    if (!lesson) return notFound(request.liveLessonId);
    if (lesson.error) return { accepted: false, code: 'FAILED', reason: lesson.failureReason ?? 'the live lesson failed' };
    this.scheduler.submit('modify', lesson.id);
    return { accepted: true };
  }

  @OnRequest(RequestSubjects.liveLessonDelete, QueueGroups.scheduler)
  async delete(@RequestPayload(RequestSubjects.liveLessonDelete) request: DeleteLiveLessonRequest): Promise<SchedulerReply> {
    if (!(await this.data.liveLessons.exists(request.liveLessonId))) return { accepted: true };
    // Recorded first: if another replica is creating this lesson it sees the request and stops.
    await this.data.liveLessons.requestDeletion(request.liveLessonId);
    this.scheduler.submit('delete', request.liveLessonId, request.reason);
    return { accepted: true };
  }

  @OnRequest(RequestSubjects.liveLessonKeepAlive, QueueGroups.scheduler)
  async keepAlive(@RequestPayload(RequestSubjects.liveLessonKeepAlive) request: KeepAliveLiveLessonRequest): Promise<SchedulerReply> {
    const lesson = await this.data.liveLessons.find(request.liveLessonId);
    if (!lesson) return notFound(request.liveLessonId);
    await this.data.liveLessons.updateLastActiveTime(lesson.id);
    await this.data.liveSessions.touch(lesson.sessionId).catch((error: unknown) => this.logger.warn(`could not touch session ${lesson.sessionId}: ${error instanceof Error ? error.message : String(error)}`));
    return { accepted: true };
  }
}
