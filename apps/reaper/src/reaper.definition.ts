import type { ServiceDefinition } from '@antidote/runtime';
import { ReaperModule } from './reaper.module.js';

/** How the reaper boots: its module, its ops port, and that it consumes bus requests. */
export const reaperService: ServiceDefinition = {
  name: 'reaper',
  module: (config) => ReaperModule.forRoot(config),
  port: (config) => config.ops.reaperPort,
  consumesBus: true,
};
