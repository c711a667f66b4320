import type { KubeObject } from '../api/object.js';
import type { ObjectStore } from '../api/store.js';
import { forbidden } from '../api/status.js';
import { formatQuantity, parseQuantity } from './quantity.js';

type ResourceList = Record<string, string>;
interface Container {
  name: string;
  resources?: { requests?: ResourceList; limits?: ResourceList };
}
interface LimitItem {
  type?: string;
  default?: ResourceList;
  defaultRequest?: ResourceList;
}

const refused = (pod: KubeObject, why: string) => {
  const error = forbidden(`pods "${pod.metadata.name}" is forbidden: ${why}`);
  return Object.assign(error, { details: { name: pod.metadata.name, kind: 'pods' } });
};

/** The ServiceAccount admission plugin: the pod's ServiceAccount (default `default`) must exist, even without a token. */
export function admitServiceAccount(store: ObjectStore, pod: KubeObject): void {
  const spec = (pod.spec ??= {});
  const name = (spec.serviceAccountName as string | undefined) || (spec.serviceAccount as string | undefined) || 'default';
  spec.serviceAccountName = name;
  spec.serviceAccount = name;
  const namespace = pod.metadata.namespace!;
  if (!store.get('/serviceaccounts', namespace, name))
    throw refused(pod, `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`);
}

/** Containers, then init containers (the order the LimitRanger reports them in). */
const containersOf = (pod: KubeObject): { container: Container; label: string }[] => [
  ...((pod.spec?.containers as Container[] | undefined) ?? []).map((container) => ({ container, label: `container ${container.name}` })),
  ...((pod.spec?.initContainers as Container[] | undefined) ?? []).map((container) => ({ container, label: `init container ${container.name}` })),
];

/** Sets the defaults a container lacks; returns the names it set. */
function fill(resources: NonNullable<Container['resources']>, kind: 'requests' | 'limits', defaults: ResourceList | undefined): string[] {
  const set = Object.keys(defaults ?? {}).filter((name) => resources[kind]?.[name] === undefined);
  if (set.length > 0) resources[kind] = { ...resources[kind], ...Object.fromEntries(set.map((name) => [name, defaults![name]])) };
  return set;
}

/** API defaulting then the LimitRanger plugin: requests default to limits, then the namespace's LimitRange fills what is missing. */
export function admitLimitRanges(store: ObjectStore, pod: KubeObject): void {
  const items = store
    .peekSorted('/limitranges', pod.metadata.namespace)
    .flatMap((range) => ((range.spec?.limits as LimitItem[] | undefined) ?? []).filter((item) => item.type === 'Container'));
  const notes: string[] = [];
  for (const { container, label } of containersOf(pod)) {
    const resources = (container.resources ??= {});
    for (const [name, value] of Object.entries(resources.limits ?? {}))
      if (resources.requests?.[name] === undefined) resources.requests = { ...resources.requests, [name]: value };
    for (const item of items) {
      const requests = fill(resources, 'requests', item.defaultRequest ?? item.default);
      const limits = fill(resources, 'limits', item.default);
      if (requests.length) notes.push(`${requests.join(', ')} request for ${label}`);
      if (limits.length) notes.push(`${limits.join(', ')} limit for ${label}`);
    }
  }
  if (notes.length > 0) pod.metadata.annotations = { ...pod.metadata.annotations, 'kubernetes.io/limit-ranger': `LimitRanger plugin set: ${notes.join('; ')}` };
}

/** What a pod counts against a quota: per resource, the sum over containers or the largest init container. */
export function podUsage(pod: KubeObject): Record<string, number> {
  const sum = (list: Container[], kind: 'requests' | 'limits', name: string) =>
    list.reduce((total, c) => total + parseQuantity(c.resources?.[kind]?.[name]), 0);
  const max = (list: Container[], kind: 'requests' | 'limits', name: string) =>
    list.reduce((top, c) => Math.max(top, parseQuantity(c.resources?.[kind]?.[name])), 0);
  const containers = (pod.spec?.containers as Container[] | undefined) ?? [];
  const inits = (pod.spec?.initContainers as Container[] | undefined) ?? [];
  const usage: Record<string, number> = { pods: 1, 'count/pods': 1 };
  for (const kind of ['requests', 'limits'] as const) {
    for (const name of ['cpu', 'memory']) usage[`${kind}.${name}`] = Math.max(sum(containers, kind, name), max(inits, kind, name));
  }
  usage.cpu = usage['requests.cpu'];
  usage.memory = usage['requests.memory'];
  return usage;
}

const counted = (pod: KubeObject): boolean => !['Succeeded', 'Failed'].includes(pod.status?.phase as string);
const isSet = (pod: KubeObject, resource: string): boolean => {
  const [kind, name] = resource.split('.') as ['requests' | 'limits', string];
  return containersOf(pod).every(({ container }) => container.resources?.[kind]?.[name] !== undefined);
};

/** Quota usage of a namespace's live pods (what the quota controller writes to status.used). */
export function namespaceUsage(store: ObjectStore, namespace: string, resources: string[]): Record<string, number> {
  const used: Record<string, number> = Object.fromEntries(resources.map((resource) => [resource, 0]));
  for (const pod of store.peek('/pods', namespace)) {
    if (!counted(pod)) continue;
    const usage = podUsage(pod);
    for (const resource of resources) used[resource] += usage[resource] ?? 0;
  }
  return used;
}

const listed = (entries: [string, number][]): string => entries.map(([resource, value]) => `${resource}=${formatQuantity(value, resource)}`).join(',');

/** ResourceQuota admission: once a quota's status.hard is known, a pod over it (or lacking a limited field) is refused. */
export function admitQuotas(store: ObjectStore, pod: KubeObject): void {
  for (const quota of store.peekSorted('/resourcequotas', pod.metadata.namespace)) {
    const hard = (quota.status?.hard as ResourceList | undefined) ?? {};
    const resources = Object.keys(hard).sort();
    if (resources.length === 0) continue;
    const missing = resources.filter((resource) => /^(requests|limits)\.(cpu|memory)$/.test(resource) && !isSet(pod, resource));
    if (missing.length > 0) throw refused(pod, `failed quota: ${quota.metadata.name}: must specify ${missing.join(',')}`);
    const usage = podUsage(pod);
    const used = namespaceUsage(store, pod.metadata.namespace!, resources);
    const exceeded = resources.filter((resource) => usage[resource] !== undefined && used[resource] + usage[resource] > parseQuantity(hard[resource]) + 1e-9);
    if (exceeded.length > 0) {
      const requested = listed(exceeded.map((resource) => [resource, usage[resource]]));
      const usedText = listed(exceeded.map((resource) => [resource, used[resource]]));
      const limited = exceeded.map((resource) => `${resource}=${hard[resource]}`).join(',');
      throw refused(pod, `exceeded quota: ${quota.metadata.name}, requested: ${requested}, used: ${usedText}, limited: ${limited}`);
    }
  }
}
