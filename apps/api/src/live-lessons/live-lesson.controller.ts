// The event stream is written by hand (stream() below). That is not because Nest's @Sse falls short:
// @nestjs/core 12's SseStream (installed) has comment lines, drain handling, headers deferred until the
// first event (so a 404/429 before it keeps its status) and a disconnect signal. What ours adds, the
// per-client PerKeySlots, listening before the row is read and closing at a final state, fits an
// Observable as well. Moving stream() to @Sse is open; see docs/architecture.md, "Hand-written on purpose".
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { LiveLessonStatus } from '@antidote/contracts';
import { DataManager, liveLessonStatusOf } from '@antidote/data';
import { LabAdmission } from '../admission/lab-admission.service.js';
import { queueEventOf, QueueWatcher } from '../admission/queue-watcher.js';
import { withQueue } from '../admission/session-labs.js';
import { exhausted, failedPrecondition, GatewayError, GrpcCode, notFound } from '../http/gateway.error.js';
import { clientOf } from '../http/client-limits.js';
import { AdminGuard } from '../http/http.guards.js';
import { validate, validateExp } from '../http/validation.js';
import { eventsQuerySchema, idParamSchema, keepAliveBodySchema, liveLessonRequestSchema } from './live-lesson.dto.js';
import { LiveLessonEventHub, type LiveLessonEvent, type StreamStatus } from './live-lesson-events.hub.js';
import { LiveLessonRequestService } from './live-lesson-request.service.js';
import { toExpLiveLesson, withDetails } from './live-lesson.mapper.js';
import { PerKeySlots } from '../http/per-key-slots.js';
import { endLab } from './end-lab.js';
import { SchedulerHandoff } from './scheduler-handoff.service.js';

const HEARTBEAT_MS = 15_000;
const killQuerySchema = z.object({ sessionId: z.string().max(64).optional() });

@Controller('exp/livelesson')
export class LiveLessonController {
  constructor(
    @Inject(LiveLessonRequestService) private readonly requests: LiveLessonRequestService,
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(SchedulerHandoff) private readonly handoff: SchedulerHandoff,
    @Inject(LiveLessonEventHub) private readonly events: LiveLessonEventHub,
    @Inject(AdminGuard) private readonly admin: AdminGuard,
    @Inject(LabAdmission) private readonly admission: LabAdmission,
    @Inject(QueueWatcher) private readonly queue: QueueWatcher,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {
    // 0: no cap on event streams per client.
    this.streams = new PerKeySlots(config.api.maxStreamsPerClient || Number.POSITIVE_INFINITY);
  }

  private readonly streams: PerKeySlots;

  /** Request a lab, or the id of the one that already exists for this session and lesson. */
  @Post()
  @HttpCode(200)
  async request(@Body() body: unknown, @Req() request: Request): Promise<{ id: string }> {
    return { id: await this.requests.request(validateExp(liveLessonRequestSchema, body, 'POST /exp/livelesson'), clientOf(request).key) };
  }

  /**
   * Keep-alive of an existing lab (new; the learner's page sends it): renews it and answers its state as
   * the event stream does, or 404 once it is gone. Unlike a repeated POST it never creates a lab.
   */
  @Post(':id/keepalive')
  @HttpCode(200)
  async keepAlive(@Param() params: unknown, @Body() body: unknown): Promise<Record<string, unknown>> {
    const { id } = validate(idParamSchema, params, 'path');
    const { sessionId } = validateExp(keepAliveBodySchema, body, 'POST /exp/livelesson/{id}/keepalive');
    return liveLessonStatusOf(await this.requests.renew(id, sessionId));
  }

  @Get(':id')
  async get(@Param() params: unknown, @Req() request: Request): Promise<Record<string, unknown>> {
    const { id } = validate(idParamSchema, params, 'path');
    const lesson = await this.data.liveLessons.find(id);
    if (!lesson) throw notFound('livelesson not found');
    if (lesson.error)
      throw failedPrecondition(
        `Livelesson encountered errors during provisioning. See antidote logs${lesson.failureReason ? `: ${lesson.failureReason}` : ''}`,
      );
    // An operator (the admin token) reads the device logins and the owning session; a learner neither,
    // unless api.exposeDevicePasswords says so: the page's terminal needs no password (the api logs in).
    const admin = this.admin.isAdmin(request.headers.authorization);
    // Waiting in line: its place and estimated wait beside the original's INITIALIZED (the poll also says its learner is still there).
    const standing = lesson.status === LiveLessonStatus.INITIALIZED ? await this.admission.standing(id) : undefined;
    return withQueue(withDetails(lesson, toExpLiveLesson(lesson, admin || this.config.api.exposeDevicePasswords, admin)), standing);
  }

  /**
   * Kill a live lesson (new): recorded, then the scheduler deletes its namespace and the record. Only its
   * own session (`?sessionId=`) or an operator (the admin token) may.
   */
  @Delete(':id')
  async kill(@Param() params: unknown, @Query() query: unknown, @Req() request: Request): Promise<{ success: boolean }> {
    const { id } = validate(idParamSchema, params, 'path');
    const { sessionId } = validate(killQuerySchema, query, 'query');
    const lesson = await this.data.liveLessons.find(id);
    if (!lesson) throw notFound('livelesson not found');
    if (!this.admin.isAdmin(request.headers.authorization) && sessionId !== lesson.sessionId) {
      throw new GatewayError(GrpcCode.PermissionDenied, "only the live lesson's own session (?sessionId=) or the admin token may delete it", 'sessionId');
    }
    // Recorded first: a scheduler that does not answer now gets it again, or finds it in the database.
    await endLab(this.data, this.handoff, id, 'killed through the API');
    return { success: true };
  }

  /**
   * Server-sent events: the current state, then every change (and, while it waits in line, its place:
   * `queue` events), until READY, an error or deletion; with `?follow=true` past READY too (stage changes),
   * until an error or deletion, with a `heartbeat` event instead of the comment line so a page can tell a
   * silent api from a quiet lab. Each status is the row's; one equal to what the stream last sent is not
   * sent again (the hub re-reads rows after a NATS outage and now and then, and says the state whether or
   * not it changed).
   */
  @Get(':id/events')
  async stream(@Param() params: unknown, @Query() query: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const { id } = validate(idParamSchema, params, 'path');
    const follow = validate(eventsQuerySchema, query, 'query').follow === 'true';
    // Listen before reading, so nothing between the read and the subscription is lost.
    const early: LiveLessonEvent[] = [];
    let forward: (item: LiveLessonEvent) => void = (item) => void early.push(item);
    const stop = this.events.listen(id, (item) => forward(item));
    // The row's state alone (no endpoints, no guide): all a stream sends.
    const lesson = await this.data.liveLessons.findState(id).catch((error: unknown) => {
      stop();
      throw error;
    });
    if (!lesson) {
      stop();
      throw notFound('livelesson not found');
    }
    const standing = lesson.status === LiveLessonStatus.INITIALIZED ? await this.admission.standing(id).catch(() => undefined) : undefined;
    const client = clientOf(request).key;
    if (!this.streams.take(client)) {
      stop();
      throw exhausted(`Too many open event streams from this address (at most ${this.config.api.maxStreamsPerClient})`, 5);
    }
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    const send = (name: string, data: unknown): void => void response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    const heartbeat = setInterval(() => void response.write(follow ? 'event: heartbeat\ndata: {}\n\n' : ': keep-alive\n\n'), HEARTBEAT_MS);
    let closed = false;
    let unfollow = (): void => undefined;
    const close = (): void => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      stop();
      unfollow();
      this.streams.release(client);
      response.end();
    };
    response.on('close', close);
    if (response.destroyed) return close();
    let last: Omit<StreamStatus, 'at'> = liveLessonStatusOf(lesson);
    send('status', last);
    if (isFinal(lesson.status, lesson.error, follow)) return close();
    if (standing) {
      const current = queueEventOf(standing, id);
      send('queue', current);
      unfollow = this.queue.follow(id, current, (event) => send('queue', event));
    }
    forward = (item) => {
      if (item.kind === 'progress') return send('progress', item.event);
      if (item.kind === 'deleted') {
        send('status', { ...last, deleted: true, at: new Date().toISOString() });
        return close();
      }
      const { at: _at, ...state } = item.event;
      if (sameState(state, last)) return;
      last = state;
      send('status', item.event);
      if (isFinal(state.status, state.error, follow)) close();
    };
    for (const item of early) forward(item);
  }
}

/** A stream ends at an error, or at READY unless it follows the lab past READY. */
const isFinal = (status: string, error: boolean, follow: boolean): boolean => error || (!follow && status === LiveLessonStatus.READY);
const sameState = (a: Omit<StreamStatus, 'at'>, b: Omit<StreamStatus, 'at'>): boolean => JSON.stringify(a) === JSON.stringify(b);
