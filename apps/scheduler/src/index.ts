export { schedulerService } from './scheduler.definition.js';
