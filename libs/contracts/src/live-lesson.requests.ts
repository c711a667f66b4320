import { z } from 'zod';
import { SchedulerRejections } from './error-codes.js';
import { liveLessonIdSchema } from './ids.js';

/**
 * Requests to the scheduler. The database row is the source of truth (what the api wrote); a request
 * only says "act on this live lesson now", so redelivered or duplicated requests are harmless.
 */
/** A request that names one live lesson and nothing more (create, keep-alive). */
const liveLessonOnlySchema = z
  .object({
    liveLessonId: liveLessonIdSchema,
  })
  .strict();

export const createLiveLessonRequestSchema = liveLessonOnlySchema;
export type CreateLiveLessonRequest = z.infer<typeof createLiveLessonRequestSchema>;

export const modifyLiveLessonRequestSchema = z
  .object({
    liveLessonId: liveLessonIdSchema,
    /** The stage the api recorded; a mismatch with the row means a newer request superseded this one. */
    stage: z.number().int().min(0).max(1000),
  })
  .strict();
export type ModifyLiveLessonRequest = z.infer<typeof modifyLiveLessonRequestSchema>;

export const deleteLiveLessonRequestSchema = z
  .object({
    liveLessonId: liveLessonIdSchema,
    /** Why (user kill, idle expiry, failed-lesson TTL, admin); recorded in logs and events. */
    reason: z.string().max(200).optional(),
  })
  .strict();
export type DeleteLiveLessonRequest = z.infer<typeof deleteLiveLessonRequestSchema>;

export const keepAliveLiveLessonRequestSchema = liveLessonOnlySchema;

export const bindLiveLessonRequestSchema = liveLessonOnlySchema;
export type BindLiveLessonRequest = z.infer<typeof bindLiveLessonRequestSchema>;
export type KeepAliveLiveLessonRequest = z.infer<typeof keepAliveLiveLessonRequestSchema>;

/** Reply to every scheduler request: accepted (queued or done) or rejected with a reason. */
export const schedulerReplySchema = z
  .object({
    accepted: z.boolean(),
    /** Machine-readable rejection (`SchedulerRejections`). */
    code: z.enum(SchedulerRejections).optional(),
    reason: z.string().optional(),
  })
  .strict();
export type SchedulerReply = z.infer<typeof schedulerReplySchema>;

/**
 * A delete request for a live lesson whose row records no deletion request: refused, nothing deleted.
 * The row is the request; the message only says "look now" (the api, the reaper and operators record
 * the deletion first).
 */
export const DELETION_NOT_REQUESTED = SchedulerRejections.deletionNotRequested;
