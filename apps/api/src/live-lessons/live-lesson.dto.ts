import { z } from 'zod';

/**
 * `expLiveLessonRequest`: the stage as a number or a numeric string (as grpc-gateway accepted it), `null`
 * or a missing field as the zero value. Unknown fields are not part of the shape (see `validateExp`).
 */
export const liveLessonRequestSchema = z.object({
  lessonSlug: z
    .string()
    .max(253)
    .nullish()
    .transform((value) => value ?? ''),
  sessionId: z
    .string()
    .max(64)
    .nullish()
    .transform((value) => value ?? ''),
  lessonStage: z
    .union([
      z.number().int().min(0).max(10_000),
      z
        .string()
        .regex(/^\d{1,5}$/)
        .transform(Number),
    ])
    .nullish()
    .transform((value) => value ?? 0),
  /** Ours: past `liveLessonLimit`, end the session's least recently used lab and start this one (one call). */
  replaceOldest: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false)
    .describe("Ours: past the session's lab limit, end its least recently used lab and start this one"),
});
/** `POST /exp/livesession` takes an empty body (the original's `google.protobuf.Empty`); fields are ignored. */
export const sessionRequestSchema = z.object({});

export type LiveLessonRequest = z.output<typeof liveLessonRequestSchema>;

export const idParamSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "-" or "_"'),
  })
  .strict();
export const slugParamSchema = z
  .object({
    slug: z
      .string()
      .min(1)
      .max(253)
      .regex(/^[A-Za-z0-9-]+$/, 'must be letters, digits or "-"'),
  })
  .strict();

/** `POST /exp/livelesson/{id}/keepalive`: the session that owns the live lesson. */
export const keepAliveBodySchema = z.object({ sessionId: z.string().min(1).max(64) });
/** `GET /exp/livelesson/{id}/events?follow=true`: stay open past READY, until the lab fails or is gone. */
export const eventsQuerySchema = z
  .object({ follow: z.enum(['true', 'false']).optional().describe('true: stay open after READY (stage changes, failure, deletion)') })
  .strict();
