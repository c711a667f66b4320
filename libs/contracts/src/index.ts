export * from './bus-permissions.js';
export * from './health.js';
export * from './ids.js';
export * from './live-lesson.events.js';
export * from './live-lesson.requests.js';
export * from './live-lesson.status.js';
export * from './reaper.js';
export * from './subjects.js';
