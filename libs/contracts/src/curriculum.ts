import { z } from 'zod';

/**
 * A curriculum was imported (it replaced the previous one, in one transaction, before this went out):
 * every app holding the curriculum in memory loads it again.
 */
export const curriculumImportedEventSchema = z
  .object({
    at: z.string(),
  })
  .strict();
export type CurriculumImportedEvent = z.infer<typeof curriculumImportedEventSchema>;
