import { Inject, Injectable } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { SchedulerRejections, type SchedulerReply } from '@antidote/contracts';
import { DataManager } from '@antidote/data';
import { namespaceName, sessionBindingLabels } from '@antidote/lesson-objects';
import { LESSON_CLUSTER, type LessonCluster } from '../cluster/lesson-cluster.port.js';
import { PoolKeeper } from './pool-keeper.service.js';

/**
 * A learner claimed a warm-pool member (the api's atomic claim bound the row): label its namespace for
 * the session (one PATCH) and refill the pool in the background.
 */
@Injectable()
export class PoolBinder {
  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(LESSON_CLUSTER) private readonly cluster: LessonCluster,
    @Inject(PoolKeeper) private readonly keeper: Pick<PoolKeeper, 'refill'>,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  async bind(liveLessonId: string): Promise<SchedulerReply> {
    const lesson = await this.data.liveLessons.find(liveLessonId);
    if (!lesson) return { accepted: false, code: SchedulerRejections.notFound, reason: `Unable to find liveLesson ${liveLessonId}` };
    if (lesson.pool)
      return { accepted: false, code: SchedulerRejections.notClaimed, reason: `live lesson ${liveLessonId} is a warm-pool member no learner has claimed` };
    this.keeper.refill();
    const signal = AbortSignal.timeout(this.config.timeouts.kubeRequestSeconds * 1000);
    await this.cluster.labelNamespace(namespaceName(this.config.instanceId, lesson.id), sessionBindingLabels(lesson.sessionId, new Date()), signal);
    return { accepted: true };
  }
}
