export { DataManager } from './data-manager.js';
export { DataError, DuplicateError, isUniqueViolation, NotFoundError } from './data.errors.js';
export { isDatabaseUnavailable } from './database-unavailable.js';
export { DatabaseLifecycle, DataModule } from './data.module.js';
export { createDataSource, databaseTarget } from './data-source.factory.js';
export type { DatabaseConfig, DatabaseTarget } from './data-source.factory.js';
export type {
  LiveEndpoint,
  LiveLesson,
  LiveLessonFilter,
  LiveLessonState,
  LivePresentation,
  WrittenLiveLessonState,
  LiveSession,
  NewLiveLesson,
  NewLiveSession,
} from './live.types.js';
export { migrate, revertAllMigrations, runMigrations } from './migrate.js';
export { CurriculumRepository } from './repositories/curriculum.repository.js';
export { CurriculumSnapshot, type HeldCurriculum } from './repositories/curriculum-snapshot.js';
export { LiveLessonWorkRepository, type ClaimedRow, type TicketState } from './repositories/live-lesson-work.repository.js';
export { LiveLessonRepository, type StatusWrite, type WrittenStatus } from './repositories/live-lesson.repository.js';
export { LiveSessionRepository } from './repositories/live-session.repository.js';
export { liveLessonStatusOf } from './live-lesson.status.js';
export { withEndpointState } from './live-lesson.mapper.js';
export { randomId, withFreshId } from './fresh-id.js';
export { poolSessionId, WarmPoolRepository } from './repositories/warm-pool.repository.js';
export { DEMAND_BUCKET_MS, WarmPoolSizingRepository, type PoolDemand, type PoolOverride } from './repositories/warm-pool-sizing.repository.js';
export { KEPT_STARTS, LessonStartRepository, startOf, type LessonStart } from './repositories/lesson-start.repository.js';
export {
  AdmissionQueueRepository,
  type AdmissionRequest,
  type AdmissionTicket,
  type DrainResult,
  type EnqueueResult,
  type QueueLimits,
} from './repositories/admission-queue.repository.js';
export { AdmissionStatsRepository, type AdmissionHistory, type CapacityHolder } from './repositories/admission-stats.repository.js';
export { RateBucketRepository, type BucketRate } from './repositories/rate-bucket.repository.js';
export { logStatements, onStatement, type LoggedStatement, type StatementLog } from './statement-log.js';
