import { runService } from '@antidote/runtime';
import { schedulerService } from './scheduler.definition.js';

runService(schedulerService);
