import { NAD_GROUP, NAD_PLURAL, NAD_VERSION, type NetworkAttachmentDefinition } from '@antidote/crd';
import {
  ApiextensionsV1Api,
  AppsV1Api,
  BatchV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  NetworkingV1Api,
  type ConfigurationOptions,
  type KubeConfig,
  type V1CustomResourceDefinition,
  type V1DaemonSet,
  type V1Ingress,
  type V1Job,
  type V1Lease,
  type V1LimitRange,
  type V1ListMeta,
  type V1Namespace,
  type V1NetworkPolicy,
  type V1Pod,
  type V1ResourceQuota,
  type V1Secret,
  type V1Service,
  type V1ServiceAccount,
} from '@kubernetes/client-node';

/** The kinds this client handles, with their TypeScript types. */
export interface KindTypes {
  Namespace: V1Namespace;
  Pod: V1Pod;
  Service: V1Service;
  Secret: V1Secret;
  NetworkPolicy: V1NetworkPolicy;
  Ingress: V1Ingress;
  Job: V1Job;
  ResourceQuota: V1ResourceQuota;
  LimitRange: V1LimitRange;
  NetworkAttachmentDefinition: NetworkAttachmentDefinition;
  CustomResourceDefinition: V1CustomResourceDefinition;
  Lease: V1Lease;
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

/** The typed client-node calls of one kind; `namespace` is ignored for cluster-scoped kinds; pods and jobs list across all namespaces when it is empty. */
export interface KindOperations<T> {
  /** Resource plural, as metrics and RBAC name it. */
  resource: string;
  namespaced: boolean;
  /** REST collection path, for watches. */
  collectionPath(namespace?: string): string;
  create(namespace: string, body: T, options: ConfigurationOptions): Promise<T>;
  read(namespace: string, name: string, options: ConfigurationOptions): Promise<T>;
  replace(namespace: string, name: string, body: T, options: ConfigurationOptions): Promise<T>;
  delete(namespace: string, name: string, propagationPolicy: string, options: ConfigurationOptions): Promise<unknown>;
  list(namespace: string, query: ListQuery, options: ConfigurationOptions): Promise<{ items: T[]; metadata?: V1ListMeta }>;
}

type OperationsTable = { [K in KubeKind]: KindOperations<KindTypes[K]> };

const listParams = (query: ListQuery) => ({
  labelSelector: query.labelSelector,
  fieldSelector: query.fieldSelector,
  limit: query.limit,
  _continue: query.continueToken,
});

const core = (plural: string) => (namespace?: string) => (namespace ? `/api/v1/namespaces/${namespace}/${plural}` : `/api/v1/${plural}`);
const group = (prefix: string, plural: string) => (namespace?: string) => (namespace ? `${prefix}/namespaces/${namespace}/${plural}` : `${prefix}/${plural}`);

/** One table of typed calls per kind, so the generic create/read/delete/list/watch need no switch. */
export function kindOperations(kubeConfig: KubeConfig): OperationsTable {
  const coreApi = kubeConfig.makeApiClient(CoreV1Api);
  const batch = kubeConfig.makeApiClient(BatchV1Api);
  const apps = kubeConfig.makeApiClient(AppsV1Api);
  const networking = kubeConfig.makeApiClient(NetworkingV1Api);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const extensions = kubeConfig.makeApiClient(ApiextensionsV1Api);
  const coordination = kubeConfig.makeApiClient(CoordinationV1Api);
  const nad = { group: NAD_GROUP, version: NAD_VERSION, plural: NAD_PLURAL };
  return {
    Namespace: {
      resource: 'namespaces',
      namespaced: false,
      collectionPath: () => '/api/v1/namespaces',
      create: (_ns, body, o) => coreApi.createNamespace({ body }, o),
      read: (_ns, name, o) => coreApi.readNamespace({ name }, o),
      replace: (_ns, name, body, o) => coreApi.replaceNamespace({ name, body }, o),
      delete: (_ns, name, propagationPolicy, o) => coreApi.deleteNamespace({ name, propagationPolicy }, o),
      list: (_ns, q, o) => coreApi.listNamespace(listParams(q), o),
    },
    Pod: {
      resource: 'pods',
      namespaced: true,
      collectionPath: core('pods'),
      create: (namespace, body, o) => coreApi.createNamespacedPod({ namespace, body }, o),
      read: (namespace, name, o) => coreApi.readNamespacedPod({ namespace, name }, o),
      replace: (namespace, name, body, o) => coreApi.replaceNamespacedPod({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => coreApi.deleteNamespacedPod({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => (namespace ? coreApi.listNamespacedPod({ namespace, ...listParams(q) }, o) : coreApi.listPodForAllNamespaces(listParams(q), o)),
    },
    Service: {
      resource: 'services',
      namespaced: true,
      collectionPath: core('services'),
      create: (namespace, body, o) => coreApi.createNamespacedService({ namespace, body }, o),
      read: (namespace, name, o) => coreApi.readNamespacedService({ namespace, name }, o),
      replace: (namespace, name, body, o) => coreApi.replaceNamespacedService({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => coreApi.deleteNamespacedService({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => coreApi.listNamespacedService({ namespace, ...listParams(q) }, o),
    },
    Secret: {
      resource: 'secrets',
      namespaced: true,
      collectionPath: core('secrets'),
      create: (namespace, body, o) => coreApi.createNamespacedSecret({ namespace, body }, o),
      read: (namespace, name, o) => coreApi.readNamespacedSecret({ namespace, name }, o),
      replace: (namespace, name, body, o) => coreApi.replaceNamespacedSecret({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => coreApi.deleteNamespacedSecret({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => coreApi.listNamespacedSecret({ namespace, ...listParams(q) }, o),
    },
    ResourceQuota: {
      resource: 'resourcequotas',
      namespaced: true,
      collectionPath: core('resourcequotas'),
      create: (namespace, body, o) => coreApi.createNamespacedResourceQuota({ namespace, body }, o),
      read: (namespace, name, o) => coreApi.readNamespacedResourceQuota({ namespace, name }, o),
      replace: (namespace, name, body, o) => coreApi.replaceNamespacedResourceQuota({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => coreApi.deleteNamespacedResourceQuota({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => coreApi.listNamespacedResourceQuota({ namespace, ...listParams(q) }, o),
    },
    ServiceAccount: {
      resource: 'serviceaccounts',
      namespaced: true,
      collectionPath: core('serviceaccounts'),
      create: (namespace, body, o) => coreApi.createNamespacedServiceAccount({ namespace, body }, o),
      read: (namespace, name, o) => coreApi.readNamespacedServiceAccount({ namespace, name }, o),
      replace: (namespace, name, body, o) => coreApi.replaceNamespacedServiceAccount({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => coreApi.deleteNamespacedServiceAccount({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => coreApi.listNamespacedServiceAccount({ namespace, ...listParams(q) }, o),
    },
    LimitRange: {
      resource: 'limitranges',
      namespaced: true,
      collectionPath: core('limitranges'),
      create: (namespace, body, o) => coreApi.createNamespacedLimitRange({ namespace, body }, o),
      read: (namespace, name, o) => coreApi.readNamespacedLimitRange({ namespace, name }, o),
      replace: (namespace, name, body, o) => coreApi.replaceNamespacedLimitRange({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => coreApi.deleteNamespacedLimitRange({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => coreApi.listNamespacedLimitRange({ namespace, ...listParams(q) }, o),
    },
    Job: {
      resource: 'jobs',
      namespaced: true,
      collectionPath: group('/apis/batch/v1', 'jobs'),
      create: (namespace, body, o) => batch.createNamespacedJob({ namespace, body }, o),
      read: (namespace, name, o) => batch.readNamespacedJob({ namespace, name }, o),
      replace: (namespace, name, body, o) => batch.replaceNamespacedJob({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => batch.deleteNamespacedJob({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => (namespace ? batch.listNamespacedJob({ namespace, ...listParams(q) }, o) : batch.listJobForAllNamespaces(listParams(q), o)),
    },
    DaemonSet: {
      resource: 'daemonsets',
      namespaced: true,
      collectionPath: group('/apis/apps/v1', 'daemonsets'),
      create: (namespace, body, o) => apps.createNamespacedDaemonSet({ namespace, body }, o),
      read: (namespace, name, o) => apps.readNamespacedDaemonSet({ namespace, name }, o),
      replace: (namespace, name, body, o) => apps.replaceNamespacedDaemonSet({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => apps.deleteNamespacedDaemonSet({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => apps.listNamespacedDaemonSet({ namespace, ...listParams(q) }, o),
    },
    NetworkPolicy: {
      resource: 'networkpolicies',
      namespaced: true,
      collectionPath: group('/apis/networking.k8s.io/v1', 'networkpolicies'),
      create: (namespace, body, o) => networking.createNamespacedNetworkPolicy({ namespace, body }, o),
      read: (namespace, name, o) => networking.readNamespacedNetworkPolicy({ namespace, name }, o),
      replace: (namespace, name, body, o) => networking.replaceNamespacedNetworkPolicy({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => networking.deleteNamespacedNetworkPolicy({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => networking.listNamespacedNetworkPolicy({ namespace, ...listParams(q) }, o),
    },
    Ingress: {
      resource: 'ingresses',
      namespaced: true,
      collectionPath: group('/apis/networking.k8s.io/v1', 'ingresses'),
      create: (namespace, body, o) => networking.createNamespacedIngress({ namespace, body }, o),
      read: (namespace, name, o) => networking.readNamespacedIngress({ namespace, name }, o),
      replace: (namespace, name, body, o) => networking.replaceNamespacedIngress({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => networking.deleteNamespacedIngress({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => networking.listNamespacedIngress({ namespace, ...listParams(q) }, o),
    },
    NetworkAttachmentDefinition: {
      resource: NAD_PLURAL,
      namespaced: true,
      collectionPath: group(`/apis/${NAD_GROUP}/${NAD_VERSION}`, NAD_PLURAL),
      create: (namespace, body, o) => custom.createNamespacedCustomObject({ ...nad, namespace, body }, o) as Promise<NetworkAttachmentDefinition>,
      read: (namespace, name, o) => custom.getNamespacedCustomObject({ ...nad, namespace, name }, o) as Promise<NetworkAttachmentDefinition>,
      replace: (namespace, name, body, o) => custom.replaceNamespacedCustomObject({ ...nad, namespace, name, body }, o) as Promise<NetworkAttachmentDefinition>,
      delete: (namespace, name, propagationPolicy, o) => custom.deleteNamespacedCustomObject({ ...nad, namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) =>
        custom.listNamespacedCustomObject({ ...nad, namespace, ...listParams(q) }, o) as Promise<{ items: NetworkAttachmentDefinition[]; metadata?: V1ListMeta }>,
    },
    CustomResourceDefinition: {
      resource: 'customresourcedefinitions',
      namespaced: false,
      collectionPath: () => '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      create: (_ns, body, o) => extensions.createCustomResourceDefinition({ body }, o),
      read: (_ns, name, o) => extensions.readCustomResourceDefinition({ name }, o),
      replace: (_ns, name, body, o) => extensions.replaceCustomResourceDefinition({ name, body }, o),
      delete: (_ns, name, propagationPolicy, o) => extensions.deleteCustomResourceDefinition({ name, propagationPolicy }, o),
      list: (_ns, q, o) => extensions.listCustomResourceDefinition(listParams(q), o),
    },
    Lease: {
      resource: 'leases',
      namespaced: true,
      collectionPath: group('/apis/coordination.k8s.io/v1', 'leases'),
      create: (namespace, body, o) => coordination.createNamespacedLease({ namespace, body }, o),
      read: (namespace, name, o) => coordination.readNamespacedLease({ namespace, name }, o),
      replace: (namespace, name, body, o) => coordination.replaceNamespacedLease({ namespace, name, body }, o),
      delete: (namespace, name, propagationPolicy, o) => coordination.deleteNamespacedLease({ namespace, name, propagationPolicy }, o),
      list: (namespace, q, o) => coordination.listNamespacedLease({ namespace, ...listParams(q) }, o),
    },
  };
}
