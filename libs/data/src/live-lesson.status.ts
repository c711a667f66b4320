import type { LiveLessonState } from './live.types.js';

/** Where a live lesson stands, as status events and the api's SSE stream report it. */
export const liveLessonStatusOf = (lesson: LiveLessonState) => ({
  liveLessonId: lesson.id,
  status: lesson.status,
  error: lesson.error,
  ...(lesson.failureReason ? { failureReason: lesson.failureReason } : {}),
  stage: lesson.currentStage,
  healthyTests: lesson.healthyTests,
  totalTests: lesson.totalTests,
  phaseTimes: lesson.phaseTimes,
  ...(lesson.estimatedReadyAt ? { estimatedReadyAt: lesson.estimatedReadyAt.toISOString() } : {}),
});
