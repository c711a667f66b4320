import type { ServiceDefinition } from '@antidote/runtime';
import { ApiModule } from './api.module.js';

/** How the api boots: the Antidote REST API and the ops routes on `httpPort`; it only publishes to the bus. */
export const apiService: ServiceDefinition = {
  name: 'api',
  module: (config) => ApiModule.forRoot(config),
  port: (config) => config.httpPort,
  host: (config) => config.api.host,
  consumesBus: false,
};
