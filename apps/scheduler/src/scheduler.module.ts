import { type DynamicModule, Module } from '@nestjs/common';
import type { AntidoteConfig } from '@antidote/config';
import { DataModule } from '@antidote/data';
import { KubeModule } from '@antidote/kube-runtime';
import { CurriculumCache, DatabaseReadiness } from '@antidote/runtime';
import { Admission } from './admission/admission.service.js';
import { AdmissionKeeper } from './admission/admission-keeper.service.js';
import { AdmissionMetrics } from './admission/admission.metrics.js';
import { KubeLessonCluster } from './cluster/kube-lesson.cluster.js';
import { LESSON_CLUSTER } from './cluster/lesson-cluster.port.js';
import { LessonInformers } from './cluster/lesson-informers.js';
import { CreateLessonOperation } from './lesson/create-lesson.operation.js';
import { DeleteLessonOperation } from './lesson/delete-lesson.operation.js';
import { LessonPlanFactory } from './lesson/lesson-plan.factory.js';
import { ModifyLessonOperation } from './lesson/modify-lesson.operation.js';
import { REACHABILITY_TIMING, ReachabilityClient, reachabilityTiming } from './lesson/reachability.client.js';
import { StartEstimates } from './lesson/start-estimates.js';
import { StatusReporter } from './lesson/status-reporter.js';
import { LessonScheduler } from './lesson-scheduler.service.js';
import { DatabaseCurriculumImages, KubePrePullCluster } from './prepull/pre-pull.adapters.js';
import { PrePullKeeper } from './prepull/pre-pull.keeper.js';
import { CURRICULUM_IMAGES, PRE_PULL_CLUSTER } from './prepull/pre-pull.port.js';
import { PoolBinder } from './pool/pool-binder.service.js';
import { PoolKeeper } from './pool/pool-keeper.service.js';
import { NamespaceWatchdog } from './reconcile/namespace-watchdog.service.js';
import { Reconciler } from './reconcile/reconciler.service.js';
import { SchedulerController } from './scheduler.controller.js';
import { SchedulerMetrics } from './scheduler.metrics.js';

/** Live lesson requests over NATS (queue group `scheduler`), driving Kubernetes. */
@Module({})
export class SchedulerModule {
  static forRoot(config: AntidoteConfig): DynamicModule {
    return {
      module: SchedulerModule,
      imports: [
        DataModule.forRoot(config),
        KubeModule.forRoot(config, { app: 'scheduler', ensureNadCrd: true, maxConcurrentWrites: config.scheduler.maxConcurrentOperations }),
      ],
      controllers: [SchedulerController],
      providers: [
        DatabaseReadiness,
        CurriculumCache,
        LessonInformers,
        { provide: LESSON_CLUSTER, useClass: KubeLessonCluster },
        SchedulerMetrics,
        StatusReporter,
        StartEstimates,
        { provide: REACHABILITY_TIMING, useValue: reachabilityTiming(config) },
        ReachabilityClient,
        LessonPlanFactory,
        CreateLessonOperation,
        ModifyLessonOperation,
        DeleteLessonOperation,
        LessonScheduler,
        Reconciler,
        NamespaceWatchdog,
        { provide: PRE_PULL_CLUSTER, useClass: KubePrePullCluster },
        { provide: CURRICULUM_IMAGES, useClass: DatabaseCurriculumImages },
        PrePullKeeper,
        PoolKeeper,
        PoolBinder,
        AdmissionMetrics,
        Admission,
        AdmissionKeeper,
      ],
    };
  }
}
