import { NAD_GROUP, NAD_PLURAL, NAD_VERSION, type Lease, type LimitRange, type NetworkAttachmentDefinition, type NetworkPolicy } from '@antidote/crd';
import type {
  V1CustomResourceDefinition,
  V1DaemonSet,
  V1Ingress,
  V1Job,
  V1Namespace,
  V1Pod,
  V1ResourceQuota,
  V1Secret,
  V1Service,
  V1ServiceAccount,
} from '@kubernetes/client-node';

/** The kinds this client handles, with their TypeScript types. */
export interface KindTypes {
  Namespace: V1Namespace;
  Pod: V1Pod;
  Service: V1Service;
  Secret: V1Secret;
  NetworkPolicy: NetworkPolicy;
  Ingress: V1Ingress;
  Job: V1Job;
  ResourceQuota: V1ResourceQuota;
  LimitRange: LimitRange;
  NetworkAttachmentDefinition: NetworkAttachmentDefinition;
  CustomResourceDefinition: V1CustomResourceDefinition;
  Lease: Lease;
  ServiceAccount: V1ServiceAccount;
  DaemonSet: V1DaemonSet;
}

export type KubeKind = keyof KindTypes;
export type KubeObject = KindTypes[KubeKind];

export interface ListQuery {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continueToken?: string;
}

export interface ListPage<T> {
  items: T[];
  resourceVersion: string;
  /** Set when more pages follow. */
  continueToken?: string;
}

/** Where a kind lives in the REST API; `namespace` is ignored for cluster-scoped kinds; pods and jobs list across all namespaces when it is empty. */
export interface KindPaths {
  /** Resource plural, as metrics and RBAC name it. */
  resource: string;
  namespaced: boolean;
  /** The collection (`/api/v1/namespaces/ns/pods`, or across namespaces without one). */
  collectionPath(namespace?: string): string;
  /** One object of the collection. */
  objectPath(namespace: string, name: string): string;
}

function kind(prefix: string, resource: string, namespaced = true): KindPaths {
  const collectionPath = (namespace?: string) =>
    namespaced && namespace ? `${prefix}/namespaces/${encodeURIComponent(namespace)}/${resource}` : `${prefix}/${resource}`;
  return { resource, namespaced, collectionPath, objectPath: (namespace, name) => `${collectionPath(namespace)}/${encodeURIComponent(name)}` };
}

/** One entry per kind, so the generic create/read/delete/list/watch need no switch. */
export const KIND_PATHS: { readonly [K in KubeKind]: KindPaths } = {
  Namespace: kind('/api/v1', 'namespaces', false),
  Pod: kind('/api/v1', 'pods'),
  Service: kind('/api/v1', 'services'),
  Secret: kind('/api/v1', 'secrets'),
  ResourceQuota: kind('/api/v1', 'resourcequotas'),
  ServiceAccount: kind('/api/v1', 'serviceaccounts'),
  LimitRange: kind('/api/v1', 'limitranges'),
  Job: kind('/apis/batch/v1', 'jobs'),
  DaemonSet: kind('/apis/apps/v1', 'daemonsets'),
  NetworkPolicy: kind('/apis/networking.k8s.io/v1', 'networkpolicies'),
  Ingress: kind('/apis/networking.k8s.io/v1', 'ingresses'),
  NetworkAttachmentDefinition: kind(`/apis/${NAD_GROUP}/${NAD_VERSION}`, NAD_PLURAL),
  CustomResourceDefinition: kind('/apis/apiextensions.k8s.io/v1', 'customresourcedefinitions', false),
  Lease: kind('/apis/coordination.k8s.io/v1', 'leases'),
};
