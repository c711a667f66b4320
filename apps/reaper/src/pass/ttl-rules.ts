/** The reaper's time rules, as pure functions of the record and `now` (table-tested with a fixed clock). */
export interface TtlPolicy {
  liveLessonTTLMinutes: number;
  liveSessionTTLMinutes: number;
  failedLiveLessonTTLMinutes: number;
  orphanGraceSeconds: number;
  stuckTerminatingSeconds: number;
}

const minutes = (value: number): number => value * 60_000;
const seconds = (value: number): number => value * 1000;

/**
 * The latest time that still expires: a record with `at <= cutoff` is due. (The original kept a live
 * lesson while `now − lastAccessed < TTL`, so age equal to the TTL expires.)
 */
export const cutoffFor = (now: Date, ttlMs: number): Date => new Date(now.getTime() - ttlMs);

export interface LessonFacts {
  lastActiveAt: Date;
  error: boolean;
  failedAt?: Date;
  deleteRequestedAt?: Date;
  /** An unclaimed warm-pool member: nobody is idle in it (the scheduler recycles it by `maxAge`). */
  pool?: boolean;
}

export type LessonVerdict = 'keep' | 'expire-idle' | 'expire-failed' | 'already-deleting';

export function lessonVerdict(lesson: LessonFacts, sessionPersistent: boolean, now: Date, policy: TtlPolicy): LessonVerdict {
  if (lesson.deleteRequestedAt) return 'already-deleting';
  if (lesson.error) {
    const failedAt = lesson.failedAt ?? lesson.lastActiveAt;
    return failedAt.getTime() <= cutoffFor(now, minutes(policy.failedLiveLessonTTLMinutes)).getTime() ? 'expire-failed' : 'keep';
  }
  if (sessionPersistent || lesson.pool) return 'keep';
  return lesson.lastActiveAt.getTime() <= cutoffFor(now, minutes(policy.liveLessonTTLMinutes)).getTime() ? 'expire-idle' : 'keep';
}

export function sessionVerdict(session: { lastActiveAt: Date; persistent: boolean }, liveLessons: number, now: Date, policy: TtlPolicy): 'keep' | 'delete' {
  if (session.persistent || liveLessons > 0) return 'keep';
  return session.lastActiveAt.getTime() <= cutoffFor(now, minutes(policy.liveSessionTTLMinutes)).getTime() ? 'delete' : 'keep';
}

export interface NamespaceFacts {
  liveLessonId?: string;
  createdAt?: Date;
  deletingSince?: Date;
}

export type NamespaceVerdict = 'keep' | 'orphan' | 'stuck' | 'terminating' | 'bad-label';

export function namespaceVerdict(namespace: NamespaceFacts, recordExists: boolean, now: Date, policy: TtlPolicy): NamespaceVerdict {
  if (namespace.deletingSince) {
    return namespace.deletingSince.getTime() <= cutoffFor(now, seconds(policy.stuckTerminatingSeconds)).getTime() ? 'stuck' : 'terminating';
  }
  if (!namespace.liveLessonId) return 'bad-label';
  if (recordExists) return 'keep';
  // A namespace without its record may be one the scheduler is creating right now: wait out the grace period.
  const created = namespace.createdAt?.getTime() ?? now.getTime();
  return created <= cutoffFor(now, seconds(policy.orphanGraceSeconds)).getTime() ? 'orphan' : 'keep';
}
