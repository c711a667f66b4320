import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { DEV_MODE_SESSION_ID } from '@antidote/contracts';
import { DataManager, DuplicateError, withFreshId, type LiveSession } from '@antidote/data';
import { liveSessionLimit } from '../admission/admission.errors.js';
import { AddressRates } from '../admission/address-rates.service.js';
import { LabAdmission } from '../admission/lab-admission.service.js';
import { toSessionLab } from '../admission/session-labs.js';
import { clientOf } from '../http/client-limits.js';
import { internal, notFound } from '../http/gateway.error.js';

import { validate, validateExp } from '../http/validation.js';
import { idParamSchema, sessionRequestSchema } from '../live-lessons/live-lesson.dto.js';
import { toExpLiveSession } from '../live-lessons/live-lesson.mapper.js';

@Controller('exp/livesession')
export class LiveSessionController {
  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(AddressRates) private readonly rates: AddressRates,
    @Inject(LabAdmission) private readonly admission: LabAdmission,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  @Post()
  @HttpCode(200)
  async request(@Body() body: unknown, @Req() request: Request): Promise<Record<string, unknown>> {
    validateExp(sessionRequestSchema, body, 'POST /exp/livesession');
    // The client as every per-client limit counts it: an IPv6 client is its /64 (api.ipv6ClientPrefix).
    const sourceIp = clientOf(request).key;
    const limit = this.config.liveSessionLimit;
    if (limit > 0 && (await this.data.liveSessions.countForIp(sourceIp)) >= limit) throw liveSessionLimit(limit);
    if (this.config.devMode) return toExpLiveSession(await this.devSession(sourceIp));
    await this.rates.take('session', sourceIp);
    const session = await withFreshId(
      (id) => this.data.liveSessions.create({ id, sourceIp }),
      () => internal('Unable to generate session ID'),
    );
    return toExpLiveSession(session);
  }

  @Get(':id')
  async get(@Param() params: unknown): Promise<Record<string, unknown>> {
    const { id } = validate(idParamSchema, params, 'path');
    const session = await this.data.liveSessions.find(id);
    if (!session) throw notFound(`Unable to find liveSession ${id}`);
    return toExpLiveSession(session);
  }

  /** "My labs": the session's labs, most recently used first, with stage, status, place in line, last activity and expiry. */
  @Get(':id/livelessons')
  async labs(@Param() params: unknown): Promise<{ LiveLessons: Record<string, unknown>[] }> {
    const { id } = validate(idParamSchema, params, 'path');
    const session = await this.data.liveSessions.find(id);
    if (!session) throw notFound(`Unable to find liveSession ${id}`);
    const labs = (await this.data.liveLessons.list({ sessionId: id })).sort((a, b) => b.lastActiveAt.getTime() - a.lastActiveAt.getTime());
    const expiry = { idleMinutes: this.config.liveLessonTTL, failedMinutes: this.config.gc.failedLiveLessonTTL, persistent: session.persistent };
    const listed = [];
    for (const lab of labs) {
      const name = (await this.data.curriculum.findLesson(lab.lessonSlug))?.name ?? lab.lessonSlug;
      const standing = lab.status === 'INITIALIZED' ? await this.admission.standing(lab.id, false) : undefined;
      listed.push(toSessionLab(lab, name, standing, expiry));
    }
    return { LiveLessons: listed };
  }

  /** Dev mode (original): every session is `antidotedevmode`; an existing one is fine. */
  private async devSession(sourceIp: string): Promise<LiveSession> {
    try {
      return await this.data.liveSessions.create({ id: DEV_MODE_SESSION_ID, sourceIp });
    } catch (error) {
      if (!(error instanceof DuplicateError)) throw error;
      return this.data.liveSessions.get(DEV_MODE_SESSION_ID);
    }
  }
}
