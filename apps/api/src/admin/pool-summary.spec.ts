import { LiveLessonStatus } from '@antidote/contracts';
import { describe, expect, it } from 'vitest';
import { summarizePools } from './pool-summary.js';

const member = (lessonSlug: string, status: LiveLessonStatus, extra: { error?: boolean; deleteRequestedAt?: Date } = {}) => ({
  lessonSlug,
  status,
  error: false,
  ...extra,
});
const at = new Date('2026-01-01T00:00:00Z');

describe('summarizePools', () => {
  it('counts each configured pool by state and ignores members of other lessons', () => {
    const members = [
      member('alpha', LiveLessonStatus.READY),
      member('alpha', LiveLessonStatus.READY),
      member('alpha', LiveLessonStatus.BOOTING),
      member('alpha', LiveLessonStatus.READY, { deleteRequestedAt: new Date() }),
      member('alpha', LiveLessonStatus.CONFIGURATION, { error: true }),
      member('gamma', LiveLessonStatus.READY),
    ];
    expect(summarizePools({ alpha: { size: 3, maxAge: 600 }, beta: { size: 1, maxAge: 0 } }, [], members)).toEqual([
      { lesson: 'alpha', mode: 'fixed', size: 3, maxAge: 600, ready: 2, building: 1, retiring: 2 },
      { lesson: 'beta', mode: 'fixed', size: 1, maxAge: 0, ready: 0, building: 0, retiring: 0 },
    ]);
  });

  it('shows adaptive bounds, and an operator’s override over the config (or alone, with the default maxAge)', () => {
    const pools = { alpha: { adaptive: true as const, min: 1, max: 6, maxAge: 600 }, beta: { size: 1, maxAge: 60 } };
    const overrides = [
      { lessonSlug: 'beta', size: 4, updatedAt: at },
      { lessonSlug: 'gamma', size: 0, maxAge: 30, updatedAt: at },
      { lessonSlug: 'delta', size: 2, updatedAt: at },
    ];
    expect(
      summarizePools(pools, overrides, [member('alpha', LiveLessonStatus.READY)]).map(({ lesson, mode, size, min, max, maxAge, ready }) => ({
        lesson,
        mode,
        size,
        min,
        max,
        maxAge,
        ready,
      })),
    ).toEqual([
      { lesson: 'alpha', mode: 'adaptive', min: 1, max: 6, maxAge: 600, ready: 1 },
      { lesson: 'beta', mode: 'override', size: 4, maxAge: 60, ready: 0 },
      { lesson: 'gamma', mode: 'override', size: 0, maxAge: 30, ready: 0 },
      { lesson: 'delta', mode: 'override', size: 2, maxAge: 3600, ready: 0 },
    ]);
  });
});
