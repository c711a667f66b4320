import { z } from 'zod';
import { liveLessonIdSchema } from './ids.js';
import { liveLessonStatusSchema, phaseTimesSchema } from './live-lesson.status.js';

/** Published by the scheduler on every status transition (and on failure, deletion). */
export const liveLessonStatusChangedEventSchema = z
  .object({
    liveLessonId: liveLessonIdSchema,
    sessionId: z.string(),
    lessonSlug: z.string(),
    status: liveLessonStatusSchema,
    error: z.boolean(),
    failureReason: z.string().optional(),
    stage: z.number().int(),
    healthyTests: z.number().int(),
    totalTests: z.number().int(),
    phaseTimes: phaseTimesSchema,
    /** True once the live lesson and its namespace are gone. */
    deleted: z.boolean().optional(),
    /** When its start is expected to reach READY (ISO time; from recent starts of its images), once estimated. */
    estimatedReadyAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('When the start is expected to reach READY (ISO time), from recent starts of its images; absent until estimated'),
    at: z.string(),
  })
  .strict();
export type LiveLessonStatusChangedEvent = z.infer<typeof liveLessonStatusChangedEventSchema>;
