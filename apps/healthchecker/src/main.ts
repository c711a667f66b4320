import { runService } from '@antidote/runtime';
import { healthcheckerService } from './healthchecker.definition.js';

runService(healthcheckerService);
