export * from './naming/index.js';
