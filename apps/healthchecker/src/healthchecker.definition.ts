import type { ServiceDefinition } from '@antidote/runtime';
import { HealthcheckerModule } from './healthchecker.module.js';

/** How the healthchecker boots: its module, its ops port, and that it consumes bus requests. */
export const healthcheckerService: ServiceDefinition = {
  name: 'healthchecker',
  module: (config) => HealthcheckerModule.forRoot(config),
  port: (config) => config.ops.healthcheckerPort,
  consumesBus: true,
};
