import type { z } from 'zod';
import { curriculumImportedEventSchema } from './curriculum.js';
import { healthCheckReplySchema, healthCheckRequestSchema, healthProgressEventSchema, waitReachableReplySchema, waitReachableRequestSchema } from './health.js';
import { liveLessonStatusChangedEventSchema } from './live-lesson.events.js';
import {
  createLiveLessonRequestSchema,
  deleteLiveLessonRequestSchema,
  bindLiveLessonRequestSchema,
  keepAliveLiveLessonRequestSchema,
  modifyLiveLessonRequestSchema,
  schedulerReplySchema,
} from './live-lesson.requests.js';
import { reaperActionEventSchema, reaperDryRunReplySchema, reaperDryRunRequestSchema, reaperPassEventSchema } from './reaper.js';

/** Request/reply subjects: `antidote.<domain>.<verb>.v<N>`. Queue group = the consuming service. */
export const RequestSubjects = {
  liveLessonCreate: 'antidote.livelesson.create.v1',
  liveLessonModify: 'antidote.livelesson.modify.v1',
  liveLessonDelete: 'antidote.livelesson.delete.v1',
  liveLessonKeepAlive: 'antidote.livelesson.keepalive.v1',
  /** A learner claimed a warm-pool member: the scheduler labels its namespace for the session and refills the pool. */
  liveLessonBind: 'antidote.livelesson.bind.v1',
  healthCheck: 'antidote.health.check.v1',
  healthWaitReachable: 'antidote.health.wait-reachable.v1',
  reaperDryRun: 'antidote.reaper.dry-run.v1',
} as const;

/** Event subjects (past tense); every subscriber gets every event. */
export const EventSubjects = {
  liveLessonStatusChanged: 'antidote.livelesson.status-changed.v1',
  healthProgressed: 'antidote.health.progressed.v1',
  reaperActed: 'antidote.reaper.action.v1',
  reaperPassed: 'antidote.reaper.pass.v1',
  /** A curriculum replaced the previous one: apps holding it in memory load it again. */
  curriculumImported: 'antidote.curriculum.imported.v1',
} as const;

export type RequestSubject = (typeof RequestSubjects)[keyof typeof RequestSubjects];
export type EventSubject = (typeof EventSubjects)[keyof typeof EventSubjects];

/** Subject → request and reply schemas: publisher and handler agree at compile time. */
export const requestContracts = {
  [RequestSubjects.liveLessonCreate]: { request: createLiveLessonRequestSchema, reply: schedulerReplySchema },
  [RequestSubjects.liveLessonModify]: { request: modifyLiveLessonRequestSchema, reply: schedulerReplySchema },
  [RequestSubjects.liveLessonDelete]: { request: deleteLiveLessonRequestSchema, reply: schedulerReplySchema },
  [RequestSubjects.liveLessonKeepAlive]: { request: keepAliveLiveLessonRequestSchema, reply: schedulerReplySchema },
  [RequestSubjects.liveLessonBind]: { request: bindLiveLessonRequestSchema, reply: schedulerReplySchema },
  [RequestSubjects.healthCheck]: { request: healthCheckRequestSchema, reply: healthCheckReplySchema },
  [RequestSubjects.healthWaitReachable]: { request: waitReachableRequestSchema, reply: waitReachableReplySchema },
  [RequestSubjects.reaperDryRun]: { request: reaperDryRunRequestSchema, reply: reaperDryRunReplySchema },
} as const satisfies Record<RequestSubject, { request: z.ZodType; reply: z.ZodType }>;

export const eventContracts = {
  [EventSubjects.liveLessonStatusChanged]: liveLessonStatusChangedEventSchema,
  [EventSubjects.healthProgressed]: healthProgressEventSchema,
  [EventSubjects.reaperActed]: reaperActionEventSchema,
  [EventSubjects.reaperPassed]: reaperPassEventSchema,
  [EventSubjects.curriculumImported]: curriculumImportedEventSchema,
} as const satisfies Record<EventSubject, z.ZodType>;

export type RequestOf<S extends RequestSubject> = z.input<(typeof requestContracts)[S]['request']>;
export type ParsedRequestOf<S extends RequestSubject> = z.output<(typeof requestContracts)[S]['request']>;
export type ReplyOf<S extends RequestSubject> = z.output<(typeof requestContracts)[S]['reply']>;
export type EventOf<S extends EventSubject> = z.output<(typeof eventContracts)[S]>;

/** Queue groups: replicas of one service share the work of a subject. */
export const QueueGroups = {
  scheduler: 'scheduler',
  healthchecker: 'healthchecker',
  reaper: 'reaper',
  api: 'api',
} as const;

/** NATS header names we set. */
export const Headers = {
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  correlationId: 'x-correlation-id',
} as const;

/** The body of an error reply: `{ "error": { code, message, issues? } }`. */
export interface ErrorReplyBody {
  error: { code: string; message: string; issues?: { path: string; message: string }[] };
}
