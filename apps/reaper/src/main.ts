import { runService } from '@antidote/runtime';
import { reaperService } from './reaper.definition.js';

runService(reaperService);
