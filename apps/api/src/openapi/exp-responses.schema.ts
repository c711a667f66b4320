import { z } from 'zod';
import { healthProgressEventSchema, liveLessonStatusChangedEventSchema, liveLessonStatusSchema, phaseTimesSchema } from '@antidote/contracts';

/**
 * What the api answers, as zod schemas named after the original's swagger definitions (`expLiveLesson`…).
 * The OpenAPI document is generated from them, and api-openapi.integration.spec.ts parses real answers
 * with them (strict: a field added to a mapper and not here fails that test).
 */
const int = z.number().int();

export const expLivePresentation = z.object({ Name: z.string(), Port: int, Type: z.string(), HepDomain: z.string() }).strict();
export const expLiveEndpoint = z
  .object({
    Name: z.string(),
    Image: z.string(),
    Ports: z.array(int),
    LivePresentations: z.array(expLivePresentation),
    Host: z.string(),
    SSHUser: z.string(),
    SSHPassword: z.string(),
  })
  .strict();
export const expLiveLesson = z
  .object({
    ID: z.string(),
    SessionID: z.string(),
    AntidoteID: z.string(),
    LessonSlug: z.string(),
    LiveEndpoints: z.record(z.string(), expLiveEndpoint),
    CurrentStage: int,
    GuideContents: z.string(),
    GuideType: z.string(),
    GuideDomain: z.string(),
    Status: liveLessonStatusSchema,
    Error: z.boolean(),
    HealthyTests: int,
    TotalTests: int,
    Diagram: z.string(),
    Video: z.string(),
    StageVideo: z.string(),
    FailureReason: z.string().describe('Ours: why provisioning failed (empty unless Error)'),
    PhaseTimes: phaseTimesSchema.describe('Ours: when each phase was entered'),
    EstimatedReadyAt: z
      .string()
      .describe('Ours: when the start is expected to reach READY, from recent starts of its images (ISO time; empty until estimated)'),
    EstimatedSecondsLeft: int.describe('Ours: seconds from this answer until EstimatedReadyAt (0 once READY or failed, or past the estimate)'),
    QueuePosition: int
      .optional()
      .describe('Ours (GET /exp/livelesson/{id}): its place in line while every lab is in use (1 = next; 0 = not waiting). Status stays INITIALIZED meanwhile'),
    EstimatedWaitSeconds: int
      .optional()
      .describe('Ours: while it waits, the estimated seconds until it starts being built (absent when it cannot be estimated)'),
  })
  .strict();
/** `GET /exp/livesession/{id}/livelessons` ("my labs"): the session's labs, most recently used first. */
export const expSessionLiveLesson = z
  .object({
    ID: z.string(),
    LessonSlug: z.string(),
    LessonName: z.string(),
    CurrentStage: int,
    Status: liveLessonStatusSchema,
    Error: z.boolean(),
    FailureReason: z.string(),
    Ending: z.boolean().describe('its deletion is under way'),
    CreatedTime: z.string(),
    LastActiveTime: z.string(),
    ExpiresAt: z.string().describe('when it is removed unless used again (ISO time); empty in a persistent session'),
    QueuePosition: int.describe('its place in line (0 = not waiting)'),
    EstimatedWaitSeconds: int.optional(),
  })
  .strict();
export const expSessionLiveLessons = z.object({ LiveLessons: z.array(expSessionLiveLesson) }).strict();
/** `GET /exp/admin/queue` (`antictl queue`). */
export const expQueue = z
  .object({
    capacity: z.object({ max: int, holding: int }).strict(),
    maxQueued: int,
    waiting: int,
    lastHour: z.object({ admittedFromQueue: int, waitP50Seconds: int.optional(), waitP95Seconds: int.optional(), abandoned: int }).strict(),
    line: z.array(
      z
        .object({
          position: int,
          liveLessonId: z.string(),
          lessonSlug: z.string(),
          client: z.string(),
          waitingSeconds: int,
          estimatedWaitSeconds: int.optional(),
          lastSeenSecondsAgo: int,
        })
        .strict(),
    ),
  })
  .strict();
export const expLiveLessonId = z.object({ id: z.string() }).strict();
export const expLiveLessons = z.object({ LiveLessons: z.record(z.string(), expLiveLesson) }).strict();
export const expKillLiveLessonStatus = z.object({ success: z.boolean() }).strict();
export const expKillLiveSessionStatus = z.object({ success: z.boolean(), liveLessons: z.array(z.string()) }).strict();
export const expLiveSession = z.object({ ID: z.string(), SourceIP: z.string(), Persistent: z.boolean() }).strict();
export const expLiveSessions = z.object({ items: z.record(z.string(), expLiveSession) }).strict();
/** `GET /exp/admin/pools`: each configured warm pool and its unclaimed members by state. */
export const expPool = z
  .object({
    lesson: z.string(),
    mode: z.enum(['fixed', 'adaptive', 'override']),
    size: z.number().int().optional(),
    min: z.number().int().optional(),
    max: z.number().int().optional(),
    maxAge: z.number(),
    ready: z.number().int(),
    building: z.number().int(),
    retiring: z.number().int(),
  })
  .strict();
export const expPools = z
  .object({
    pools: z.array(expPool),
  })
  .strict();

const expPresentation = z.object({ Name: z.string(), Port: int, Type: z.string() }).strict();
const expEndpoint = z
  .object({
    Name: z.string(),
    Image: z.string(),
    ConfigurationType: z.string(),
    AdditionalPorts: z.array(int),
    Presentations: z.array(expPresentation),
    Host: z.string(),
  })
  .strict();
export const expLesson = z
  .object({
    Slug: z.string(),
    Stages: z.array(z.object({ Description: z.string(), GuideType: z.string(), StageVideo: z.string() }).strict()),
    Name: z.string(),
    Endpoints: z.array(expEndpoint),
    Connections: z.array(z.object({ A: z.string(), B: z.string() }).strict()),
    Authors: z.array(z.object({ Name: z.string(), Link: z.string() }).strict()),
    Category: z.string(),
    Diagram: z.string(),
    Video: z.string(),
    Tier: z.string(),
    Prereqs: z.array(z.string()).describe('Only the prerequisites the lesson lists itself; /prereqs has them all'),
    Tags: z.array(z.string()),
    Collection: z.string(),
    Description: z.string(),
    ShortDescription: z.string(),
    LessonFile: z.string(),
    LessonDir: z.string(),
    ReadyDelay: int,
  })
  .strict();
export const expLessons = z.object({ lessons: z.array(expLesson) }).strict();
export const expLessonPrereqs = z.object({ prereqs: z.array(z.string()) }).strict();
const expLessonSummary = z.object({ Slug: z.string(), Name: z.string(), Description: z.string() }).strict();
export const expCollection = z
  .object({
    Slug: z.string(),
    Title: z.string(),
    Image: z.string(),
    Website: z.string(),
    ContactEmail: z.string(),
    BriefDescription: z.string(),
    LongDescription: z.string(),
    Type: z.string(),
    Tier: z.string(),
    CollectionFile: z.string(),
    /** Absent when the collection has no lessons (as the original answered). */
    Lessons: z.array(expLessonSummary).optional(),
  })
  .strict();
export const expCollections = z.object({ collections: z.array(expCollection) }).strict();
export const expImage = z.object({ Name: z.string() }).strict();
export const expImages = z.object({ items: z.record(z.string(), expImage) }).strict();
export const expCurriculumInfo = z.object({ Name: z.string(), Description: z.string(), Website: z.string(), AVer: z.string(), GitRoot: z.string() }).strict();
export const expAntidoteInfo = z.object({ buildSha: z.string(), buildVersion: z.string(), curriculumVersion: z.string() }).strict();

/** Every error, in the original gateway's shape (GatewayError.body()). */
export const runtimeError = z
  .object({
    error: z.string(),
    code: int.describe('the gRPC status code'),
    message: z.string(),
    details: z
      .array(
        z.union([
          z.object({ field: z.string() }).strict(),
          z
            .object({
              reason: z.enum(['LIVE_LESSON_LIMIT', 'LIVE_SESSION_LIMIT', 'NEW_SESSION_RATE', 'NEW_LAB_RATE', 'QUEUE_FULL']),
              learnerMessage: z.string().describe("what happened and what to do next, in the learner's words"),
              retryAfterSeconds: int.optional(),
              limit: int.optional(),
              oldestLiveLessonId: z
                .string()
                .optional()
                .describe('LIVE_LESSON_LIMIT: the lab to end (least recently used); or send the request again with replaceOldest'),
              oldestLessonSlug: z.string().optional(),
            })
            .strict(),
        ]),
      )
      .describe('the request field at fault, or (429) why the request was not taken now and what to do'),
  })
  .strict();

/** The `data:` of the event stream's `status` events: the row's state; later ones add when the row changed (`at`), a deletion `deleted`. */
export const liveLessonStatusStreamEvent = liveLessonStatusChangedEventSchema.partial({ sessionId: true, lessonSlug: true, at: true });
export const liveLessonProgressStreamEvent = healthProgressEventSchema;
/** The `data:` of `queue` events: a waiting lab's place (1 = next; 0 once it left the line) and estimated seconds until it starts. */
export const liveLessonQueueStreamEvent = z
  .object({ liveLessonId: z.string(), position: int, waiting: int, estimatedWaitSeconds: int.optional(), at: z.string() })
  .strict();

export const healthz = z.object({ status: z.literal('ok') }).strict();
export const readyz = z
  .object({
    ready: z.boolean(),
    checks: z.record(z.string(), z.boolean()),
    instance: z.string().optional().describe('the token its supervisor gave this process'),
  })
  .strict();
