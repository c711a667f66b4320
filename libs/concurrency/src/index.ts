export { deadline, type Deadline } from './deadline.js';
export { Semaphore } from './semaphore.js';
