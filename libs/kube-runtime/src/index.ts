export { KubeModule, type KubeModuleOptions } from './kube.module.js';
