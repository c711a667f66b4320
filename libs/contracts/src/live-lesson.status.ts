import { z } from 'zod';

/**
 * Live lesson status strings, exactly as the original API reports them. There is no failed status:
 * failure is the `error` flag, with the status left at the phase that failed (plus, new, a reason).
 */
export const LiveLessonStatus = {
  INITIALIZED: 'INITIALIZED',
  BOOTING: 'BOOTING',
  CONFIGURATION: 'CONFIGURATION',
  READY: 'READY',
} as const;
export type LiveLessonStatus = (typeof LiveLessonStatus)[keyof typeof LiveLessonStatus];
export const liveLessonStatusSchema = z.enum([LiveLessonStatus.INITIALIZED, LiveLessonStatus.BOOTING, LiveLessonStatus.CONFIGURATION, LiveLessonStatus.READY]);

/** When each phase was entered (ISO timestamps); recorded by the scheduler. */
export const phaseTimesSchema = z
  .object({
    initializedAt: z.string().optional(),
    bootingAt: z.string().optional(),
    configurationAt: z.string().optional(),
    readyAt: z.string().optional(),
    failedAt: z.string().optional(),
  })
  .strict();
export type PhaseTimes = z.infer<typeof phaseTimesSchema>;
export type PhaseTimeKey = keyof PhaseTimes;

/** Which phase timestamp a status sets. */
export const phaseTimeKeyOf: Record<LiveLessonStatus, PhaseTimeKey> = {
  INITIALIZED: 'initializedAt',
  BOOTING: 'bootingAt',
  CONFIGURATION: 'configurationAt',
  READY: 'readyAt',
};
