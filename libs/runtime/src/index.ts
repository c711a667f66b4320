// First, before anything of NestJS is imported: its date formats made on first use (the file says why).
import './date-formats-on-first-use.js';
export { runService, startService } from './bootstrap.js';
export type { RunningService, ServiceDefinition } from './bootstrap.js';
export { currentCorrelationId, withCorrelation } from './correlation.js';
export { createLogger, PinoNestLogger } from './logger.js';
export type { AppLogger } from './logger.js';
export { MetricsService } from './metrics.service.js';
export { OpsController } from './ops.controller.js';
export { ReadinessRegistry } from './readiness.js';
export type { ReadinessCheck, ReadinessReport } from './readiness.js';
export { APP_LOGGER, RuntimeModule } from './runtime.module.js';
export { maskSecrets, maskSecretsInText, SECRET_KEYS } from './secrets.js';
export { DatabaseReadiness } from './database.readiness.js';
export { CURRICULUM_CHECK_MS, CURRICULUM_CHECK_PERIOD, CurriculumCache } from './curriculum.cache.js';
export { flushTracing, memorySpans, startTracing, tracerOf } from './tracing.js';
export { TracingInterceptor } from './tracing.interceptor.js';
