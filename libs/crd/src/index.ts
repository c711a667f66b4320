export { ensureNadCrd, isCrdEstablished } from './ensure-nad-crd.js';
export type { CrdClient, EnsureNadCrdOptions } from './ensure-nad-crd.js';
export { NadCrdError } from './nad-crd.error.js';
export type { NadCrdErrorCode } from './nad-crd.error.js';
export { nadCrdManifest } from './nad-crd.manifest.js';
export * from './nad.types.js';
export type * from './wire.types.js';
