import type { LiveLesson } from '@antidote/data';
import type { Standing } from './lab-admission.service.js';

/** `GET /exp/livelesson/{id}` beside the original fields: its place in line (0: not waiting) and, when known, the estimated seconds until it starts. */
export const withQueue = (body: Record<string, unknown>, standing: Standing | undefined): Record<string, unknown> => ({
  ...body,
  QueuePosition: standing?.position ?? 0,
  ...(standing?.estimatedWaitSeconds === undefined ? {} : { EstimatedWaitSeconds: standing.estimatedWaitSeconds }),
});

export interface LabExpiry {
  /** `liveLessonTTL` in minutes: an idle lab is expired this long after its last activity. */
  idleMinutes: number;
  /** `gc.failedLiveLessonTTL` in minutes: a failed lab is removed this long after it failed. */
  failedMinutes: number;
  /** The session is persistent: its labs never expire. */
  persistent: boolean;
}

/** When the reaper may remove the lab (ISO time), or '' when never. */
function expiresAt(lab: LiveLesson, expiry: LabExpiry): string {
  if (lab.error) return new Date(new Date(lab.phaseTimes.failedAt ?? lab.updatedAt).getTime() + expiry.failedMinutes * 60_000).toISOString();
  if (expiry.persistent) return '';
  return new Date(lab.lastActiveAt.getTime() + expiry.idleMinutes * 60_000).toISOString();
}

/** One of a session's labs, as `GET /exp/livesession/{id}/livelessons` lists them ("my labs"). */
export function toSessionLab(lab: LiveLesson, lessonName: string, standing: Standing | undefined, expiry: LabExpiry): Record<string, unknown> {
  return withQueue(
    {
      ID: lab.id,
      LessonSlug: lab.lessonSlug,
      LessonName: lessonName,
      CurrentStage: lab.currentStage,
      Status: lab.status,
      Error: lab.error,
      FailureReason: lab.failureReason ?? '',
      Ending: lab.deleteRequestedAt !== undefined,
      CreatedTime: lab.createdAt.toISOString(),
      LastActiveTime: lab.lastActiveAt.toISOString(),
      ExpiresAt: expiresAt(lab, expiry),
    },
    standing,
  );
}
