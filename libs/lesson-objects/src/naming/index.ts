export * from './dns-name.js';
export * from './labels.js';
export * from './names.js';
