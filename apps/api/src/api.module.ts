import { type DynamicModule, Module } from '@nestjs/common';
import type { AntidoteConfig } from '@antidote/config';
import { DataModule } from '@antidote/data';
import { CurriculumCache, DatabaseReadiness } from '@antidote/runtime';
import { AdminController } from './admin/admin.controller.js';
import { PoolAdminController } from './admin/pool-admin.controller.js';
import { QueueAdminController } from './admin/queue-admin.controller.js';
import { AddressRates } from './admission/address-rates.service.js';
import { LabAdmission } from './admission/lab-admission.service.js';
import { QueueWatcher } from './admission/queue-watcher.js';
import { SessionLabLimit } from './admission/session-lab-limit.service.js';
import { CurriculumController } from './curriculum/curriculum.controller.js';
import { CurriculumStartup } from './curriculum/curriculum-startup.service.js';
import { AdminGuard } from './http/http.guards.js';
import { LessonController } from './lessons/lesson.controller.js';
import { LiveLessonEventHub } from './live-lessons/live-lesson-events.hub.js';
import { LiveLessonRequestService } from './live-lessons/live-lesson-request.service.js';
import { PoolClaimService } from './live-lessons/pool-claim.service.js';
import { PoolOverrides } from './live-lessons/pool-overrides.js';
import { SchedulerHandoff } from './live-lessons/scheduler-handoff.service.js';
import { LiveLessonController } from './live-lessons/live-lesson.controller.js';
import { OpenApiController } from './openapi/openapi.controller.js';
import { LiveSessionController } from './sessions/live-session.controller.js';
import { TerminalService } from './terminals/terminal.service.js';

/** The `/exp` REST API. */
@Module({})
export class ApiModule {
  static forRoot(config: AntidoteConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [DataModule.forRoot(config)],
      controllers: [
        LiveSessionController,
        LiveLessonController,
        LessonController,
        CurriculumController,
        AdminController,
        PoolAdminController,
        QueueAdminController,
        OpenApiController,
      ],
      providers: [
        CurriculumCache,
        DatabaseReadiness,
        AdminGuard,
        LiveLessonRequestService,
        PoolClaimService,
        PoolOverrides,
        SchedulerHandoff,
        LiveLessonEventHub,
        CurriculumStartup,
        TerminalService,
        AddressRates,
        LabAdmission,
        SessionLabLimit,
        QueueWatcher,
      ],
    };
  }
}
