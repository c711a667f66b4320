import type { ServiceDefinition } from '@antidote/runtime';
import { SchedulerModule } from './scheduler.module.js';

/** How the scheduler boots: its module, its ops port, and that it consumes bus requests. */
export const schedulerService: ServiceDefinition = {
  name: 'scheduler',
  module: (config) => SchedulerModule.forRoot(config),
  port: (config) => config.ops.schedulerPort,
  consumesBus: true,
};
