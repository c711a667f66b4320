export * from './builders/index.js';
export * from './naming/index.js';
