export * from './curriculum.model.js';
