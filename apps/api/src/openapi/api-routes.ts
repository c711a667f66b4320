import { z } from 'zod';
import {
  eventsQuerySchema,
  idParamSchema,
  keepAliveBodySchema,
  liveLessonRequestSchema,
  sessionRequestSchema,
  slugParamSchema,
} from '../live-lessons/live-lesson.dto.js';
import { poolResizeSchema } from '../admin/pool-resize.dto.js';
import * as exp from './exp-responses.schema.js';

/** What a route answers with on success: a JSON body, a server-sent event stream, or plain text. */
export type Success = { json: z.ZodType; status?: 200 } | { events: Record<string, z.ZodType> } | { text: string };

export interface ApiRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI template: `{id}` for Nest's `:id`. */
  path: string;
  operationId: string;
  summary: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  ok: Success;
  /** HTTP statuses the route itself can answer with, each in the gateway error shape. */
  errors: number[];
  /** Other answers with a body of their own (`/readyz`'s 503). */
  alsoAnswers?: Record<number, z.ZodType>;
  admin?: boolean;
  /** Ops routes: no rate limit, no in-flight cap, not in the gateway error shape. */
  ops?: boolean;
  /** Event streams are not counted by the in-flight cap (they have their own per-client slots). */
  stream?: boolean;
  tag: string;
}

// The controllers keep these three private; the same shapes, checked against the server by api-openapi.integration.spec.ts.
const lessonListQuery = z.object({ Category: z.string().max(64).optional().describe('only the lessons of this category') }).strict();
const killQuery = z.object({ sessionId: z.string().max(64).optional().describe("the live lesson's own session (or send the admin token)") });
const persistenceBody = z.object({ persistent: z.boolean() }).strict();

const BODY_ERRORS = [400, 413, 415];
/** A followed stream's sign of life (`?follow=true`), every 15 s. */
const streamHeartbeat = z.object({}).strict().describe('a followed stream is alive');

/** Every route the api serves; the OpenAPI document is generated from this table and the schemas it names. */
export const API_ROUTES: ApiRoute[] = [
  {
    tag: 'LiveSessionsService',
    method: 'post',
    path: '/exp/livesession',
    operationId: 'RequestLiveSession',
    summary: 'Create a live session (body: {}; other fields are ignored)',
    body: sessionRequestSchema,
    ok: { json: exp.expLiveSession },
    errors: [...BODY_ERRORS, 429],
  },
  {
    tag: 'LiveSessionsService',
    method: 'get',
    path: '/exp/livesession/{id}',
    operationId: 'GetLiveSession',
    summary: 'A live session',
    params: idParamSchema,
    ok: { json: exp.expLiveSession },
    errors: [400, 404],
  },
  {
    tag: 'LiveSessionsService',
    method: 'get',
    path: '/exp/livesession/{id}/livelessons',
    operationId: 'ListSessionLiveLessons',
    summary: 'The session\'s labs ("my labs"): lesson, stage, status, place in line, last activity and expiry',
    params: idParamSchema,
    ok: { json: exp.expSessionLiveLessons },
    errors: [400, 404],
  },
  {
    tag: 'LiveLessonsService',
    method: 'post',
    path: '/exp/livelesson',
    operationId: 'RequestLiveLesson',
    summary:
      "Request a live lesson, or the id of the existing one (changes its stage, or keeps it alive). When every lab is in use it waits in line (INITIALIZED, QueuePosition); 429 past the session's lab limit (details name the lab to end, or send replaceOldest), the address's new-lab rate or a full line",
    body: liveLessonRequestSchema,
    ok: { json: exp.expLiveLessonId },
    errors: [...BODY_ERRORS, 404, 409, 429, 503],
  },
  {
    tag: 'LiveLessonsService',
    method: 'get',
    path: '/exp/livelesson/{id}',
    operationId: 'GetLiveLesson',
    summary: 'A live lesson (expLiveLesson, plus FailureReason and PhaseTimes); 409 once provisioning failed',
    params: idParamSchema,
    ok: { json: exp.expLiveLesson },
    errors: [400, 404, 409],
  },
  {
    tag: 'LiveLessonsService',
    method: 'delete',
    path: '/exp/livelesson/{id}',
    operationId: 'KillLiveLesson',
    summary: 'Kill a live lesson: its own session (?sessionId=) or the admin token',
    params: idParamSchema,
    query: killQuery,
    ok: { json: exp.expKillLiveLessonStatus },
    errors: [400, 403, 404],
  },
  {
    tag: 'LiveLessonsService',
    method: 'post',
    path: '/exp/livelesson/{id}/keepalive',
    operationId: 'KeepLiveLessonAlive',
    summary: 'Renew a live lesson of this session (body: {sessionId}) and answer its state; 404 once it is gone. Never creates one, never changes its stage',
    params: idParamSchema,
    body: keepAliveBodySchema,
    ok: { json: exp.liveLessonStatusStreamEvent },
    errors: [...BODY_ERRORS, 404],
  },
  {
    tag: 'LiveLessonsService',
    method: 'get',
    path: '/exp/livelesson/{id}/events',
    operationId: 'StreamLiveLesson',
    summary:
      'Server-sent events: the current state, then each change (and, while it waits in line, its place: queue events), until READY, an error or deletion (with ?follow=true: until an error or deletion, and a heartbeat event every 15 s); a comment line every 15 s',
    params: idParamSchema,
    query: eventsQuerySchema,
    ok: {
      events: {
        status: exp.liveLessonStatusStreamEvent,
        progress: exp.liveLessonProgressStreamEvent,
        heartbeat: streamHeartbeat,
        queue: exp.liveLessonQueueStreamEvent,
      },
    },
    errors: [400, 404, 429],
    stream: true,
  },
  {
    tag: 'LessonService',
    method: 'get',
    path: '/exp/lesson',
    operationId: 'ListLessons',
    summary: 'Lessons',
    query: lessonListQuery,
    ok: { json: exp.expLessons },
    errors: [400],
  },
  {
    tag: 'LessonService',
    method: 'get',
    path: '/exp/lesson/{slug}',
    operationId: 'GetLesson',
    summary: 'A lesson',
    params: slugParamSchema,
    ok: { json: exp.expLesson },
    errors: [400, 404],
  },
  {
    tag: 'LessonService',
    method: 'get',
    path: '/exp/lesson/{slug}/prereqs',
    operationId: 'GetAllLessonPrereqs',
    summary: 'All prerequisites of a lesson, transitively, nearest first',
    params: slugParamSchema,
    ok: { json: exp.expLessonPrereqs },
    errors: [400, 404],
  },
  {
    tag: 'CollectionService',
    method: 'get',
    path: '/exp/collection',
    operationId: 'ListCollections',
    summary: 'Collections',
    ok: { json: exp.expCollections },
    errors: [],
  },
  {
    tag: 'CollectionService',
    method: 'get',
    path: '/exp/collection/{slug}',
    operationId: 'GetCollection',
    summary: 'A collection with its lessons',
    params: slugParamSchema,
    ok: { json: exp.expCollection },
    errors: [400, 404],
  },
  { tag: 'ImageService', method: 'get', path: '/exp/image', operationId: 'ListImages', summary: 'Images', ok: { json: exp.expImages }, errors: [] },
  {
    tag: 'ImageService',
    method: 'get',
    path: '/exp/image/{slug}',
    operationId: 'GetImage',
    summary: 'An image',
    params: slugParamSchema,
    ok: { json: exp.expImage },
    errors: [400, 404],
  },
  {
    tag: 'CurriculumService',
    method: 'get',
    path: '/exp/curriculum',
    operationId: 'GetCurriculumInfo',
    summary: 'The curriculum record',
    ok: { json: exp.expCurriculumInfo },
    errors: [],
  },
  {
    tag: 'AntidoteInfoService',
    method: 'get',
    path: '/exp/antidoteinfo',
    operationId: 'GetAntidoteInfo',
    summary: 'Build and curriculum versions',
    ok: { json: exp.expAntidoteInfo },
    errors: [],
  },
  {
    tag: 'Admin',
    method: 'get',
    path: '/exp/admin/livelessons',
    operationId: 'ListLiveLessons',
    summary: 'All live lessons',
    ok: { json: exp.expLiveLessons },
    errors: [],
    admin: true,
  },
  {
    tag: 'Admin',
    method: 'get',
    path: '/exp/admin/livesessions',
    operationId: 'ListLiveSessions',
    summary: 'All live sessions',
    ok: { json: exp.expLiveSessions },
    errors: [],
    admin: true,
  },
  {
    tag: 'Admin',
    method: 'get',
    path: '/exp/admin/pools',
    operationId: 'ListWarmPools',
    summary: 'The warm pools (warmPools) and their unclaimed members: ready, building, retiring',
    ok: { json: exp.expPools },
    errors: [],
    admin: true,
  },
  {
    tag: 'Admin',
    method: 'put',
    path: '/exp/admin/pools/{slug}',
    operationId: 'ResizeWarmPool',
    summary: "Set a lesson's warm pool size (0 drains it), over the config, for every scheduler",
    params: slugParamSchema,
    body: poolResizeSchema,
    ok: { json: exp.expPool },
    errors: [...BODY_ERRORS, 404],
    admin: true,
  },
  {
    tag: 'Admin',
    method: 'delete',
    path: '/exp/admin/pools/{slug}',
    operationId: 'ResetWarmPool',
    summary: "Drop an operator's pool size: the config's sizing again",
    params: slugParamSchema,
    ok: { json: exp.expKillLiveLessonStatus },
    errors: [400, 404],
    admin: true,
  },
  {
    tag: 'Admin',
    method: 'get',
    path: '/exp/admin/queue',
    operationId: 'GetQueue',
    summary: "The waiting room: capacity, the line with each place, wait and estimate, the last hour's waits and abandonments",
    ok: { json: exp.expQueue },
    errors: [],
    admin: true,
  },
  {
    tag: 'Admin',
    method: 'delete',
    path: '/exp/admin/livelesson/{id}',
    operationId: 'AdminKillLiveLesson',
    summary: 'Kill any live lesson',
    params: idParamSchema,
    ok: { json: exp.expKillLiveLessonStatus },
    errors: [400, 404],
    admin: true,
  },
  {
    tag: 'Admin',
    method: 'delete',
    path: '/exp/admin/livesession/{id}',
    operationId: 'AdminKillLiveSession',
    summary: 'Kill a session and its live lessons',
    params: idParamSchema,
    ok: { json: exp.expKillLiveSessionStatus },
    errors: [400, 404],
    admin: true,
  },
  {
    tag: 'Admin',
    method: 'put',
    path: '/exp/admin/livesession/{id}/persistence',
    operationId: 'SetLiveSessionPersistence',
    summary: 'Make a session persistent (its live lessons never expire)',
    params: idParamSchema,
    body: persistenceBody,
    ok: { json: exp.expLiveSession },
    errors: [...BODY_ERRORS, 404],
    admin: true,
  },
  {
    tag: 'Docs',
    method: 'get',
    path: '/exp/openapi.json',
    operationId: 'GetOpenApiDocument',
    summary: 'This document (the UI is at /exp/docs/)',
    ok: { text: 'application/json' },
    errors: [],
  },
  { tag: 'Ops', method: 'get', path: '/healthz', operationId: 'Liveness', summary: 'Liveness', ok: { json: exp.healthz }, errors: [], ops: true },
  {
    tag: 'Ops',
    method: 'get',
    path: '/readyz',
    operationId: 'Readiness',
    summary: 'Readiness (database, NATS, curriculum); 503 with the same body when not ready',
    ok: { json: exp.readyz },
    errors: [],
    alsoAnswers: { 503: exp.readyz },
    ops: true,
  },
  {
    tag: 'Ops',
    method: 'get',
    path: '/metrics',
    operationId: 'Metrics',
    summary: 'Prometheus metrics',
    ok: { text: 'text/plain; version=0.0.4' },
    errors: [],
    ops: true,
  },
];

/**
 * Statuses every non-ops route may answer: a malformed path, a Host the api does not answer to (or a
 * write from another origin), the per-client rate limit and in-flight cap, a failure, the global
 * in-flight cap (not on streams).
 */
export const commonErrors = (route: ApiRoute): number[] => (route.ops ? [] : [400, 403, 429, 500, ...(route.stream ? [] : [503])]);
/** Admin routes also answer 401 (no bearer token) and 403 (a wrong one, or none configured). */
export const errorsOf = (route: ApiRoute): number[] =>
  [...new Set([...route.errors, ...(route.admin ? [401, 403] : []), ...commonErrors(route)])].sort((a, b) => a - b);
