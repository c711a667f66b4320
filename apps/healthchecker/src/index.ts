export { healthcheckerService } from './healthchecker.definition.js';
