import { describe, expect, it } from 'vitest';
import { lessonVerdict, namespaceVerdict, sessionVerdict, type TtlPolicy } from './ttl-rules.js';

const now = new Date('2026-06-01T12:00:00Z');
const ago = (ms: number): Date => new Date(now.getTime() - ms);
const MIN = 60_000;
const policy: TtlPolicy = {
  liveLessonTTLMinutes: 30,
  liveSessionTTLMinutes: 1440,
  failedLiveLessonTTLMinutes: 60,
  orphanGraceSeconds: 300,
  stuckTerminatingSeconds: 600,
};

describe('live lesson TTL', () => {
  it.each([
    ['active a minute ago', { lastActiveAt: ago(MIN), error: false }, false, 'keep'],
    ['idle one ms short of the TTL', { lastActiveAt: ago(30 * MIN - 1), error: false }, false, 'keep'],
    ['idle exactly the TTL', { lastActiveAt: ago(30 * MIN), error: false }, false, 'expire-idle'],
    ['idle an hour', { lastActiveAt: ago(60 * MIN), error: false }, false, 'expire-idle'],
    ['idle an hour in a persistent session', { lastActiveAt: ago(60 * MIN), error: false }, true, 'keep'],
    ['failed 59 minutes ago', { lastActiveAt: ago(120 * MIN), error: true, failedAt: ago(59 * MIN) }, false, 'keep'],
    ['failed 60 minutes ago', { lastActiveAt: ago(120 * MIN), error: true, failedAt: ago(60 * MIN) }, false, 'expire-failed'],
    ['failed long ago, persistent session: failures still go', { lastActiveAt: ago(MIN), error: true, failedAt: ago(600 * MIN) }, true, 'expire-failed'],
    ['an unclaimed warm-pool member idle an hour: never expired as idle', { lastActiveAt: ago(60 * MIN), error: false, pool: true }, false, 'keep'],
    [
      'a failed warm-pool member still expires as failed',
      { lastActiveAt: ago(120 * MIN), error: true, failedAt: ago(60 * MIN), pool: true },
      false,
      'expire-failed',
    ],
    ['already being deleted', { lastActiveAt: ago(600 * MIN), error: false, deleteRequestedAt: ago(MIN) }, false, 'already-deleting'],
  ] as const)('%s → %s', (_case, lesson, persistent, verdict) => {
    expect(lessonVerdict(lesson, persistent, now, policy)).toBe(verdict);
  });
});

describe('session TTL (from last activity, not creation)', () => {
  it.each([
    ['idle a day, no lessons', { lastActiveAt: ago(1440 * MIN), persistent: false }, 0, 'delete'],
    ['idle a day minus 1 ms', { lastActiveAt: ago(1440 * MIN - 1), persistent: false }, 0, 'keep'],
    ['idle a day with a live lesson', { lastActiveAt: ago(2000 * MIN), persistent: false }, 1, 'keep'],
    ['idle forever but persistent', { lastActiveAt: ago(99_999 * MIN), persistent: true }, 0, 'keep'],
  ] as const)('%s → %s', (_case, session, lessons, verdict) => {
    expect(sessionVerdict(session, lessons, now, policy)).toBe(verdict);
  });
});

describe('namespaces', () => {
  it.each([
    ['with its record', { liveLessonId: 'abc', createdAt: ago(10 * MIN) }, true, 'keep'],
    ['without a record, older than the grace', { liveLessonId: 'abc', createdAt: ago(300_000) }, false, 'orphan'],
    ['without a record, still in the grace period', { liveLessonId: 'abc', createdAt: ago(299_999) }, false, 'keep'],
    ['without a liveLesson label', { createdAt: ago(10 * MIN) }, false, 'bad-label'],
    ['terminating for 9 minutes', { liveLessonId: 'abc', deletingSince: ago(9 * MIN) }, false, 'terminating'],
    ['terminating for 10 minutes', { liveLessonId: 'abc', deletingSince: ago(10 * MIN) }, true, 'stuck'],
  ] as const)('%s → %s', (_case, namespace, recordExists, verdict) => {
    expect(namespaceVerdict(namespace, recordExists, now, policy)).toBe(verdict);
  });
});
