import { z } from 'zod';

/** `expLiveLessonRequest`: grpc-gateway accepted the stage as a number or a numeric string. */
export const liveLessonRequestSchema = z
  .object({
    lessonSlug: z.string().max(253).default(''),
    sessionId: z.string().max(64).default(''),
    lessonStage: z.union([z.number().int().min(0).max(10_000), z.string().regex(/^\d{1,5}$/).transform(Number)]).default(0),
  })
  .strict();
export type LiveLessonRequest = z.output<typeof liveLessonRequestSchema>;

export const idParamSchema = z.object({ id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "-" or "_"') }).strict();
export const slugParamSchema = z.object({ slug: z.string().min(1).max(253).regex(/^[A-Za-z0-9-]+$/, 'must be letters, digits or "-"') }).strict();
