// First: V8's heap settings before anything of the scheduler allocates.
import './memory-flags.js';
import { runService } from '@antidote/runtime';
import { schedulerService } from './scheduler.definition.js';

runService(schedulerService);
