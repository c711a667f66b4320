export type { KubeObject, ObjectMeta } from './api/object.js';
export type { RequestRecord } from './counters.js';
export { defaultFaults } from './faults.js';
export type { ApiErrorRule, Faults } from './faults.js';
export { KubeSim, startKubeSim } from './kube-sim.js';
export type { KubeSimOptions } from './kube-sim.js';
export type { AuthOptions } from './auth/auth-gate.js';
export { parseTokenFile } from './auth/tokens.js';
export type { TokenEntry, UserInfo } from './auth/tokens.js';
