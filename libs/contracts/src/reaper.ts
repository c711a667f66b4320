import { z } from 'zod';

export const reaperActionKindSchema = z.enum([
  'expire-live-lesson',
  'expire-failed-live-lesson',
  'delete-session',
  'delete-orphan-namespace',
  'remove-orphan-record',
  'report-stuck-namespace',
  'remove-stuck-finalizers',
  'skip-bad-record',
]);
export type ReaperActionKind = z.infer<typeof reaperActionKindSchema>;

/** One thing the reaper did (or, in a dry run, would do). */
export const reaperActionEventSchema = z
  .object({
    action: reaperActionKindSchema,
    /** Live lesson id, session id or namespace name. */
    target: z.string(),
    reason: z.string(),
    dryRun: z.boolean(),
    /** For stuck namespaces: the finalizers and resources holding them. */
    details: z.record(z.string(), z.unknown()).optional(),
    at: z.string(),
  })
  .strict();
export type ReaperActionEvent = z.infer<typeof reaperActionEventSchema>;

export const reaperPassEventSchema = z
  .object({
    startedAt: z.string(),
    durationMs: z.number(),
    dryRun: z.boolean(),
    /** Count of actions per kind. */
    counts: z.record(z.string(), z.number().int()),
    /** Records or namespaces skipped because they could not be understood. */
    skipped: z.number().int(),
    errors: z.array(z.string()),
    /** Kubernetes calls made by the pass. */
    kubeCalls: z.number().int(),
    holder: z.string(),
  })
  .strict();
export type ReaperPassEvent = z.infer<typeof reaperPassEventSchema>;

/** Ask the reaper (leader) for a dry run of its next pass: `antictl reap --dry-run`. */
export const reaperDryRunRequestSchema = z.object({}).strict();
export const reaperDryRunReplySchema = z.object({ actions: z.array(reaperActionEventSchema), pass: reaperPassEventSchema }).strict();
export type ReaperDryRunReply = z.infer<typeof reaperDryRunReplySchema>;
