import type { KubeObject } from '../api/object.js';

const RBAC = 'rbac.authorization.k8s.io/v1';
const DISCOVERY = ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'];
const PUBLIC = ['/healthz', '/livez', '/readyz', '/version', '/version/'];

const clusterRole = (name: string, urls: string[]): KubeObject => ({
  apiVersion: RBAC,
  kind: 'ClusterRole',
  metadata: { name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
  rules: [{ verbs: ['get'], nonResourceURLs: urls }],
});
const binding = (name: string, groups: string[]): KubeObject => ({
  apiVersion: RBAC,
  kind: 'ClusterRoleBinding',
  metadata: { name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
  subjects: groups.map((group) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group })),
});

/** The API server's bootstrap roles kube-sim needs: discovery for authenticated users, health and version for all. */
export const bootstrapPolicy = (): KubeObject[] => [
  clusterRole('system:discovery', DISCOVERY),
  binding('system:discovery', ['system:authenticated']),
  clusterRole('system:public-info-viewer', PUBLIC),
  binding('system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
];
