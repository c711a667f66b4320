import { RequestSubjects } from '@antidote/contracts';
import type { DataManager } from '@antidote/data';
import type { SchedulerHandoff } from './scheduler-handoff.service.js';

/**
 * Ends a lab: the deletion is recorded on its row first (the truth: re-driven if no scheduler hears of
 * it now), then handed to a scheduler (sent again while none answers). A row already gone is a NotFoundError.
 */
export async function endLab(data: DataManager, handoff: Pick<SchedulerHandoff, 'tell'>, liveLessonId: string, reason: string): Promise<void> {
  await data.liveLessons.requestDeletion(liveLessonId);
  await handoff.tell(RequestSubjects.liveLessonDelete, { liveLessonId, reason });
}
