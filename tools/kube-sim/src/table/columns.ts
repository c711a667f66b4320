import type { KubeObject } from '../api/object.js';
import { age } from './age.js';
import { podCells } from './pod-columns.js';

/** A column of a Table (meta.k8s.io/v1), with how to fill it from an object. */
export interface Column {
  name: string;
  type?: 'string' | 'integer' | 'date';
  format?: string;
  priority?: number;
  description?: string;
}

export interface Printer {
  columns: Column[];
  cells(object: KubeObject, now: number): unknown[];
}

type Any = Record<string, unknown>;
const field = (object: KubeObject, path: string): unknown => path.split('.').reduce<unknown>((value, key) => (value as Any | undefined)?.[key], object);
const text = (value: unknown, empty = '<none>'): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? (value === '' ? empty : String(value)) : empty;
const count = (value: unknown): number => (value && typeof value === 'object' ? Object.keys(value).length : 0);
const selector = (value: unknown): string =>
  value && typeof value === 'object' && count(value) > 0
    ? Object.entries(value)
        .map(([k, v]) => `${k}=${text(v, '')}`)
        .join(',')
    : '<none>';

const NAME: Column = { name: 'Name', format: 'name', description: 'Name must be unique within a namespace.' };
const AGE: Column = { name: 'Age', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' };
const col = (name: string, priority = 0, type: Column['type'] = 'string'): Column => ({ name, priority, type });

function servicePorts(service: KubeObject): string {
  const ports = (field(service, 'spec.ports') as { port: number; protocol?: string; nodePort?: number }[] | undefined) ?? [];
  return ports.length === 0 ? '<none>' : ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
}

function jobCompletions(job: KubeObject): string {
  const completions = field(job, 'spec.completions') as number | undefined;
  const succeeded = (field(job, 'status.succeeded') as number | undefined) ?? 0;
  return completions === undefined ? `${succeeded}/1 of ${(field(job, 'spec.parallelism') as number | undefined) ?? 1}` : `${succeeded}/${completions}`;
}

function jobDuration(job: KubeObject, now: number): string {
  const start = field(job, 'status.startTime') as string | undefined;
  if (!start) return '';
  const end = (field(job, 'status.completionTime') as string | undefined) ?? new Date(now).toISOString();
  return age(start, Date.parse(end));
}

function nodeStatus(node: KubeObject): string {
  const ready = ((field(node, 'status.conditions') as { type: string; status: string }[] | undefined) ?? []).find((c) => c.type === 'Ready');
  const status = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  return field(node, 'spec.unschedulable') ? `${status},SchedulingDisabled` : status;
}

const nodeAddress = (node: KubeObject, type: string): string =>
  ((field(node, 'status.addresses') as { type: string; address: string }[] | undefined) ?? []).find((a) => a.type === type)?.address ?? '<none>';

/** Printers per `group/plural`, columns as the real API server's table convertors give them. */
export const PRINTERS: Record<string, Printer> = {
  '/pods': {
    columns: [NAME, col('Ready'), col('Status'), col('Restarts'), AGE, col('IP', 1), col('Node', 1), col('Nominated Node', 1), col('Readiness Gates', 1)],
    cells: podCells,
  },
  '/namespaces': {
    columns: [NAME, col('Status'), AGE],
    cells: (o, now) => [o.metadata.name, text(field(o, 'status.phase'), 'Active'), age(o.metadata.creationTimestamp, now)],
  },
  '/services': {
    columns: [NAME, col('Type'), col('Cluster-IP'), col('External-IP'), col('Port(s)'), AGE, col('Selector', 1)],
    cells: (o, now) => [
      o.metadata.name,
      text(field(o, 'spec.type'), 'ClusterIP'),
      text(field(o, 'spec.clusterIP')),
      text((field(o, 'spec.externalIPs') as string[] | undefined)?.join(',')),
      servicePorts(o),
      age(o.metadata.creationTimestamp, now),
      selector(field(o, 'spec.selector')),
    ],
  },
  '/secrets': {
    columns: [NAME, col('Type'), col('Data', 0, 'integer'), AGE],
    cells: (o, now) => [o.metadata.name, text(o.type, 'Opaque'), count(o.data), age(o.metadata.creationTimestamp, now)],
  },
  '/configmaps': {
    columns: [NAME, col('Data', 0, 'integer'), AGE],
    cells: (o, now) => [o.metadata.name, count(o.data) + count(o.binaryData), age(o.metadata.creationTimestamp, now)],
  },
  '/serviceaccounts': {
    columns: [NAME, col('Secrets', 0, 'integer'), AGE],
    cells: (o, now) => [o.metadata.name, ((o.secrets as unknown[] | undefined) ?? []).length, age(o.metadata.creationTimestamp, now)],
  },
  '/events': {
    columns: [col('Last Seen'), col('Type'), col('Reason'), col('Object'), col('Message')],
    cells: (o, now) => [
      age(o.lastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp, now),
      text(o.type),
      text(o.reason),
      `${text(field(o, 'involvedObject.kind'), '').toLowerCase()}/${text(field(o, 'involvedObject.name'), '')}`,
      text(o.message, ''),
    ],
  },
  '/nodes': {
    columns: [
      NAME,
      col('Status'),
      col('Roles'),
      AGE,
      col('Version'),
      col('Internal-IP', 1),
      col('External-IP', 1),
      col('OS-Image', 1),
      col('Kernel-Version', 1),
      col('Container-Runtime', 1),
    ],
    cells: (o, now) => [
      o.metadata.name,
      nodeStatus(o),
      '<none>',
      age(o.metadata.creationTimestamp, now),
      text(field(o, 'status.nodeInfo.kubeletVersion'), ''),
      nodeAddress(o, 'InternalIP'),
      nodeAddress(o, 'ExternalIP'),
      text(field(o, 'status.nodeInfo.osImage'), '<unknown>'),
      text(field(o, 'status.nodeInfo.kernelVersion'), '<unknown>'),
      text(field(o, 'status.nodeInfo.containerRuntimeVersion'), '<unknown>'),
    ],
  },
  '/resourcequotas': {
    columns: [NAME, AGE, col('Request'), col('Limit')],
    cells: (o, now) => {
      const hard = (field(o, 'status.hard') ?? field(o, 'spec.hard') ?? {}) as Any;
      const used = (field(o, 'status.used') ?? {}) as Any;
      const pairs = (limits: boolean) =>
        Object.keys(hard)
          .filter((k) => k.startsWith('limits.') === limits)
          .sort()
          .map((k) => `${k}: ${text(used[k], '0')}/${String(hard[k])}`)
          .join(', ');
      return [o.metadata.name, age(o.metadata.creationTimestamp, now), pairs(false), pairs(true)];
    },
  },
  'batch/jobs': {
    columns: [NAME, col('Completions'), col('Duration'), AGE, col('Containers', 1), col('Images', 1), col('Selector', 1)],
    cells: (o, now) => {
      const containers = (field(o, 'spec.template.spec.containers') as { name: string; image?: string }[] | undefined) ?? [];
      return [
        o.metadata.name,
        jobCompletions(o),
        jobDuration(o, now),
        age(o.metadata.creationTimestamp, now),
        containers.map((c) => c.name).join(','),
        containers.map((c) => c.image ?? '').join(','),
        selector(field(o, 'spec.selector.matchLabels')),
      ];
    },
  },
  'coordination.k8s.io/leases': {
    columns: [NAME, col('Holder'), AGE],
    cells: (o, now) => [o.metadata.name, text(field(o, 'spec.holderIdentity'), ''), age(o.metadata.creationTimestamp, now)],
  },
  'networking.k8s.io/networkpolicies': {
    columns: [NAME, col('Pod-Selector'), AGE],
    cells: (o, now) => [o.metadata.name, selector(field(o, 'spec.podSelector.matchLabels')).replace('<none>', ''), age(o.metadata.creationTimestamp, now)],
  },
  'rbac.authorization.k8s.io/rolebindings': {
    columns: [NAME, col('Role'), AGE],
    cells: (o, now) => [o.metadata.name, `${text(field(o, 'roleRef.kind'))}/${text(field(o, 'roleRef.name'))}`, age(o.metadata.creationTimestamp, now)],
  },
  'rbac.authorization.k8s.io/clusterrolebindings': {
    columns: [NAME, col('Role'), AGE],
    cells: (o, now) => [o.metadata.name, `${text(field(o, 'roleRef.kind'))}/${text(field(o, 'roleRef.name'))}`, age(o.metadata.creationTimestamp, now)],
  },
};

/** What the API server prints for kinds without a printer of their own (and for CRDs). */
export const DEFAULT_PRINTER: Printer = {
  columns: [
    NAME,
    { name: 'Created At', type: 'date', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' },
  ],
  cells: (o) => [o.metadata.name, o.metadata.creationTimestamp],
};

/** Custom resources without additionalPrinterColumns: Name and Age. */
export const CUSTOM_PRINTER: Printer = { columns: [NAME, AGE], cells: (o, now) => [o.metadata.name, age(o.metadata.creationTimestamp, now)] };
