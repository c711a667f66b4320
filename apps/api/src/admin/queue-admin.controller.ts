import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import type { QueueSummary } from '@antidote/contracts';
import { DataManager } from '@antidote/data';
import { LabAdmission } from '../admission/lab-admission.service.js';
import { AdminGuard } from '../http/http.guards.js';

const HOUR_MS = 60 * 60_000;

/** The value below which `share` of the sorted values lie (nearest rank). */
export const percentile = (sorted: readonly number[], share: number): number | undefined =>
  sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];

/** The waiting room, for operators (`antictl queue`). */
@Controller('exp/admin/queue')
@UseGuards(AdminGuard)
export class QueueAdminController {
  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(LabAdmission) private readonly admission: LabAdmission,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  @Get()
  async queue(): Promise<QueueSummary> {
    const now = Date.now();
    const [line, holding, history] = await Promise.all([
      this.admission.line(),
      this.data.admission.holding(),
      this.data.admissionStats.history(new Date(now - HOUR_MS), 10_000),
    ]);
    const waits = [...history.waits].sort((a, b) => a - b);
    const seconds = (value: number | undefined): number | undefined => (value === undefined ? undefined : Math.round(value));
    return {
      capacity: { max: this.config.scheduler.maxLiveLessons, holding },
      maxQueued: this.config.scheduler.maxQueued,
      waiting: line.length,
      lastHour: {
        admittedFromQueue: waits.length,
        waitP50Seconds: seconds(percentile(waits, 0.5)),
        waitP95Seconds: seconds(percentile(waits, 0.95)),
        abandoned: history.abandoned,
      },
      line: line.map((standing) => ({
        position: standing.position,
        liveLessonId: standing.liveLessonId,
        lessonSlug: standing.lessonSlug,
        client: standing.client,
        waitingSeconds: Math.round((now - standing.enqueuedAt.getTime()) / 1000),
        ...(standing.estimatedWaitSeconds === undefined ? {} : { estimatedWaitSeconds: standing.estimatedWaitSeconds }),
        lastSeenSecondsAgo: Math.round((now - standing.lastSeenAt.getTime()) / 1000),
      })),
    };
  }
}
