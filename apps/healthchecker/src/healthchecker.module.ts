import { type DynamicModule, Module } from '@nestjs/common';
import type { AntidoteConfig } from '@antidote/config';
import { DataModule } from '@antidote/data';
import { DatabaseReadiness } from '@antidote/runtime';
import { HealthController } from './health.controller.js';
import { HealthMetrics } from './health.metrics.js';
import { HealthService } from './health.service.js';

/** Reachability probes over NATS request/reply (queue group `healthchecker`). */
@Module({})
export class HealthcheckerModule {
  static forRoot(config: AntidoteConfig): DynamicModule {
    return {
      module: HealthcheckerModule,
      imports: [DataModule.forRoot(config)],
      controllers: [HealthController],
      providers: [HealthService, HealthMetrics, DatabaseReadiness],
    };
  }
}
