import { type DynamicModule, Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import type { AntidoteConfig } from '@antidote/config';
import { DatabaseLifecycle, DataModule } from '@antidote/data';
import { ReadinessRegistry } from '@antidote/runtime';
import { HealthController } from './health.controller.js';
import { HealthMetrics } from './health.metrics.js';
import { HealthService } from './health.service.js';

@Injectable()
class HealthcheckerReadiness implements OnModuleInit {
  constructor(
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(DatabaseLifecycle) private readonly database: DatabaseLifecycle,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.database.isReady());
  }
}

/** Reachability probes over NATS request/reply (queue group `healthchecker`). */
@Module({})
export class HealthcheckerModule {
  static forRoot(config: AntidoteConfig): DynamicModule {
    return {
      module: HealthcheckerModule,
      imports: [DataModule.forRoot(config)],
      controllers: [HealthController],
      providers: [HealthService, HealthMetrics, HealthcheckerReadiness],
    };
  }
}
