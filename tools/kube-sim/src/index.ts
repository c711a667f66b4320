export type { KubeObject, ObjectMeta } from './api/object.js';
export type { RequestRecord } from './counters.js';
export { defaultFaults } from './faults.js';
export type { ApiErrorRule, Faults } from './faults.js';
export { KubeSim, startKubeSim } from './kube-sim.js';
export type { KubeSimOptions } from './kube-sim.js';
export { SimNodes, startSimNodes } from './nodes/node-agent.js';
export type { SimNodesOptions } from './nodes/node-agent.js';
export { microTime } from './nodes/node-registry.js';
