import { Inject, Injectable } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { LiveLessonStatus } from '@antidote/contracts';
import { DataManager, type LiveLesson } from '@antidote/data';
import { LESSON_CLUSTER, type LessonCluster, type LessonPlan } from '../cluster/lesson-cluster.port.js';
import { LessonPlanFactory } from './lesson-plan.factory.js';
import { StatusReporter } from './status-reporter.js';

/**
 * MODIFY (stage change): the api already set CONFIGURATION, the stage and its guide. Replace the old
 * stage's configuration jobs (and their pods) with the new stage's, then READY. No pod is recreated.
 */
@Injectable()
export class ModifyLessonOperation {
  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(LESSON_CLUSTER) private readonly cluster: LessonCluster,
    @Inject(LessonPlanFactory) private readonly plans: LessonPlanFactory,
    @Inject(StatusReporter) private readonly status: StatusReporter,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  /** True when the row really asks for a stage change (a redelivered request after success asks nothing). */
  static isPending(lesson: LiveLesson): boolean {
    return lesson.status === LiveLessonStatus.CONFIGURATION && lesson.configuredStage !== undefined && lesson.configuredStage !== lesson.currentStage;
  }

  async run(lesson: LiveLesson, signal: AbortSignal, onPlan: (plan: LessonPlan) => void): Promise<void> {
    const plan = await this.plans.build(lesson);
    onPlan(plan);
    const stage = lesson.currentStage;
    const timeouts = this.config.timeouts;
    await this.cluster.configure(plan, stage, { oldJobsGoneMs: timeouts.oldJobsGoneSeconds * 1000, jobsMs: timeouts.configJobSeconds * 1000 }, signal);
    await this.data.liveLessons.setConfiguredStage(lesson.id, stage);
    const current = await this.data.liveLessons.get(lesson.id);
    // A newer stage change may have landed meanwhile; it will run next and set READY itself.
    if (current.currentStage === stage) await this.status.ready(current);
  }
}
