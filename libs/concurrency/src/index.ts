export { deadline, type Deadline } from './deadline.js';
export { linkedSignal, type LinkedSignal } from './linked-signal.js';
export { Semaphore } from './semaphore.js';
