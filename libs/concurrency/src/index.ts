export { Semaphore } from './semaphore.js';
