import { Body, Controller, Delete, Get, Inject, Param, Put, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import { RequestSubjects } from '@antidote/contracts';
import { DataManager } from '@antidote/data';
import { notFound } from '../http/gateway.error.js';
import { AdminGuard } from '../http/http.guards.js';
import { validate } from '../http/validation.js';
import { idParamSchema } from '../live-lessons/live-lesson.dto.js';
import { toExpLiveLesson, toExpLiveSession, withDetails } from '../live-lessons/live-lesson.mapper.js';
import { SchedulerHandoff } from '../live-lessons/scheduler-handoff.service.js';

const persistenceSchema = z.object({ persistent: z.boolean() }).strict();

/** Operators' routes, behind `Authorization: Bearer <api.adminToken>`. */
@Controller('exp/admin')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(SchedulerHandoff) private readonly handoff: SchedulerHandoff,
  ) {}

  /** Device logins included: the admin token reads them whatever api.exposeDevicePasswords says. */
  @Get('livelessons')
  async liveLessons(): Promise<{ LiveLessons: Record<string, unknown> }> {
    const lessons = await this.data.liveLessons.list();
    return { LiveLessons: Object.fromEntries(lessons.map((lesson) => [lesson.id, withDetails(lesson, toExpLiveLesson(lesson, true, true))])) };
  }

  @Get('livesessions')
  async liveSessions(): Promise<{ items: Record<string, unknown> }> {
    const sessions = await this.data.liveSessions.list();
    return { items: Object.fromEntries(sessions.map((session) => [session.id, toExpLiveSession(session)])) };
  }

  @Delete('livelesson/:id')
  async killLiveLesson(@Param() params: unknown): Promise<{ success: boolean }> {
    const { id } = validate(idParamSchema, params, 'path');
    if (!(await this.data.liveLessons.exists(id))) throw notFound('livelesson not found');
    await this.kill(id);
    return { success: true };
  }

  /** Kills every live lesson of the session, then the session. */
  @Delete('livesession/:id')
  async killLiveSession(@Param() params: unknown): Promise<{ success: boolean; liveLessons: string[] }> {
    const { id } = validate(idParamSchema, params, 'path');
    if (!(await this.data.liveSessions.find(id))) throw notFound(`Unable to find liveSession ${id}`);
    const lessons = await this.data.liveLessons.idsForSession(id);
    for (const lesson of lessons) await this.kill(lesson);
    await this.data.liveSessions.delete(id);
    return { success: true, liveLessons: lessons };
  }

  @Put('livesession/:id/persistence')
  async persistence(@Param() params: unknown, @Body() body: unknown): Promise<Record<string, unknown>> {
    const { id } = validate(idParamSchema, params, 'path');
    const { persistent } = validate(persistenceSchema, body, 'body');
    if (!(await this.data.liveSessions.find(id))) throw notFound(`Unable to find liveSession ${id}`);
    await this.data.liveSessions.updatePersistence(id, persistent);
    return toExpLiveSession(await this.data.liveSessions.get(id));
  }

  private async kill(id: string): Promise<void> {
    await this.data.liveLessons.requestDeletion(id);
    // Recorded first: a scheduler that does not answer now gets it again, or finds it in the database.
    await this.handoff.tell(RequestSubjects.liveLessonDelete, { liveLessonId: id, reason: 'killed by an operator' });
  }
}
