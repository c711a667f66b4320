import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { AppLogger } from './logger.js';
import { MetricsService } from './metrics.service.js';
import { OpsController } from './ops.controller.js';
import { ReadinessRegistry } from './readiness.js';

export const APP_LOGGER = Symbol.for('antidote.logger');

/** Ops routes, readiness, metrics and the logger for one service. */
@Global()
@Module({})
export class RuntimeModule {
  static forRoot(service: string, logger: AppLogger): DynamicModule {
    return {
      module: RuntimeModule,
      controllers: [OpsController],
      providers: [
        { provide: ReadinessRegistry, useValue: new ReadinessRegistry() },
        { provide: MetricsService, useValue: new MetricsService(service) },
        { provide: APP_LOGGER, useValue: logger },
      ],
      exports: [ReadinessRegistry, MetricsService, APP_LOGGER],
    };
  }
}
