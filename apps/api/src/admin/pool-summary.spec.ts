import { LiveLessonStatus } from '@antidote/contracts';
import { describe, expect, it } from 'vitest';
import { summarizePools } from './pool-summary.js';

const member = (lessonSlug: string, status: LiveLessonStatus, extra: { error?: boolean; deleteRequestedAt?: Date } = {}) => ({ lessonSlug, status, error: false, ...extra });

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
    expect(summarizePools({ alpha: { size: 3, maxAge: 600 }, beta: { size: 1, maxAge: 0 } }, members)).toEqual([
      { lesson: 'alpha', size: 3, maxAge: 600, ready: 2, building: 1, retiring: 2 },
      { lesson: 'beta', size: 1, maxAge: 0, ready: 0, building: 0, retiring: 0 },
    ]);
  });
});
