import type { DataSource } from 'typeorm';
import { AdmissionQueueRepository } from './repositories/admission-queue.repository.js';
import { AdmissionStatsRepository } from './repositories/admission-stats.repository.js';
import { RateBucketRepository } from './repositories/rate-bucket.repository.js';
import { CurriculumRepository } from './repositories/curriculum.repository.js';
import { LessonStartRepository } from './repositories/lesson-start.repository.js';
import { LiveLessonWorkRepository } from './repositories/live-lesson-work.repository.js';
import { LiveLessonRepository } from './repositories/live-lesson.repository.js';
import { LiveSessionRepository } from './repositories/live-session.repository.js';
import { WarmPoolSizingRepository } from './repositories/warm-pool-sizing.repository.js';
import { WarmPoolRepository } from './repositories/warm-pool.repository.js';

/**
 * Everything the services store, over one DataSource: `curriculum` (curriculum, collections, images,
 * lessons), `liveLessons`, `liveSessions`, `work` (claims, re-drive and expiry queries) `pools`
 * (warm-pool members and their claims), `poolSizing` (operators' pool sizes, demand per pooled lesson),
 * `starts` (recent starts that reached READY, which start estimates are drawn from), `admission` (the
 * waiting room), `admissionStats` (its history, the capacity it waits for) and `rateBuckets`
 * (per-address token buckets).
 */
export class DataManager {
  readonly curriculum: CurriculumRepository;
  readonly liveLessons: LiveLessonRepository;
  readonly liveSessions: LiveSessionRepository;
  readonly work: LiveLessonWorkRepository;
  readonly pools: WarmPoolRepository;
  readonly poolSizing: WarmPoolSizingRepository;
  readonly starts: LessonStartRepository;
  readonly admission: AdmissionQueueRepository;
  readonly admissionStats: AdmissionStatsRepository;
  readonly rateBuckets: RateBucketRepository;

  constructor(
    readonly dataSource: DataSource,
    now: () => Date = () => new Date(),
  ) {
    this.curriculum = new CurriculumRepository(dataSource, now);
    this.liveLessons = new LiveLessonRepository(dataSource, now);
    this.liveSessions = new LiveSessionRepository(dataSource, now);
    this.work = new LiveLessonWorkRepository(dataSource, this.liveLessons, now);
    this.pools = new WarmPoolRepository(dataSource, this.liveLessons, now);
    this.poolSizing = new WarmPoolSizingRepository(dataSource, now);
    this.starts = new LessonStartRepository(dataSource);
    this.admission = new AdmissionQueueRepository(dataSource, now);
    this.admissionStats = new AdmissionStatsRepository(dataSource, now);
    this.rateBuckets = new RateBucketRepository(dataSource, now);
  }

  /** Readiness: the database answers a trivial query. */
  async ping(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
