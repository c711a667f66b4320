import { lessonSlugSchema } from '@antidote/contracts';
import { z } from 'zod';

/** One lesson's warm pool: `size` live lessons kept READY at stage 0, each replaced once older than `maxAge` seconds. */
export const warmPoolSchema = z
  .object({
    /** Members kept READY (0 = none; they count against `scheduler.maxLiveLessons`, never against a learner's limits). */
    size: z.number().int().min(0).max(1000),
    /** Seconds a member waits unclaimed before it is replaced by a fresh one (0 = never). */
    maxAge: z.number().min(0).default(3600),
  })
  .strict();

/** `warmPools: { <lessonSlug>: { size, maxAge } }`; empty (the default): no pools, every lab is built when asked for. */
export const warmPoolsSchema = z.record(lessonSlugSchema, warmPoolSchema);

export type WarmPoolConfig = z.infer<typeof warmPoolSchema>;
