/** A kind of object kube-sim serves. */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  /** Subresources served (`status`, `log`, `finalize`). */
  subresources?: string[];
  /** Discovery categories (`all`: what `kubectl get all` lists). */
  categories?: string[];
}

const core = (kind: string, plural: string, namespaced: boolean, extra: Partial<ResourceType> = {}): ResourceType => ({
  group: '',
  version: 'v1',
  kind,
  plural,
  singular: kind.toLowerCase(),
  namespaced,
  ...extra,
});

const rbac = (kind: string, plural: string, namespaced: boolean): ResourceType => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind,
  plural,
  singular: kind.toLowerCase(),
  namespaced,
});

/** Built-in kinds; CRDs add more at run time. */
export const BUILTIN_RESOURCES: ResourceType[] = [
  core('Namespace', 'namespaces', false, { shortNames: ['ns'], subresources: ['status', 'finalize'] }),
  core('Pod', 'pods', true, { shortNames: ['po'], subresources: ['status', 'log'], categories: ['all'] }),
  core('Service', 'services', true, { shortNames: ['svc'], subresources: ['status'], categories: ['all'] }),
  core('Secret', 'secrets', true),
  core('ConfigMap', 'configmaps', true, { shortNames: ['cm'] }),
  core('Event', 'events', true, { shortNames: ['ev'] }),
  core('ResourceQuota', 'resourcequotas', true, { shortNames: ['quota'], subresources: ['status'] }),
  core('LimitRange', 'limitranges', true, { shortNames: ['limits'] }),
  core('ServiceAccount', 'serviceaccounts', true, { shortNames: ['sa'] }),
  core('Node', 'nodes', false, { shortNames: ['no'], subresources: ['status'] }),
  {
    group: 'apps',
    version: 'v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    singular: 'daemonset',
    namespaced: true,
    shortNames: ['ds'],
    subresources: ['status'],
    categories: ['all'],
  },
  { group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', singular: 'job', namespaced: true, subresources: ['status'], categories: ['all'] },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    singular: 'networkpolicy',
    namespaced: true,
    shortNames: ['netpol'],
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'Ingress',
    plural: 'ingresses',
    singular: 'ingress',
    namespaced: true,
    shortNames: ['ing'],
    subresources: ['status'],
  },
  { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', singular: 'lease', namespaced: true },
  rbac('Role', 'roles', true),
  rbac('ClusterRole', 'clusterroles', false),
  rbac('RoleBinding', 'rolebindings', true),
  rbac('ClusterRoleBinding', 'clusterrolebindings', false),
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    subresources: ['status'],
  },
];

export const apiVersionOf = (type: Pick<ResourceType, 'group' | 'version'>): string => (type.group ? `${type.group}/${type.version}` : type.version);

/** The registry of served kinds, by group/version/plural. */
export class ResourceRegistry {
  private readonly types = new Map<string, ResourceType>();

  constructor() {
    for (const type of BUILTIN_RESOURCES) this.add(type);
  }

  add(type: ResourceType): void {
    this.types.set(`${type.group}/${type.version}/${type.plural}`, type);
  }

  remove(group: string, version: string, plural: string): void {
    this.types.delete(`${group}/${version}/${plural}`);
  }

  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.get(`${group}/${version}/${plural}`);
  }

  all(): ResourceType[] {
    return [...this.types.values()];
  }

  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    return this.all().find((type) => apiVersionOf(type) === apiVersion && type.kind === kind);
  }
}
