/**
 * The requests sent to kube-sim and to a real kube-apiserver alike: what the platform sends (leases,
 * namespaces, lesson objects, pods right after their namespace, finalize), kubectl's usual ones, and each
 * case where kube-sim used to accept what the real server refuses. `{ns}` is the test's namespace.
 */
export interface DifferentialCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  contentType?: string;
  /** Compare the Status message word for word (otherwise code, reason, causes' fields). */
  message?: boolean;
  /** Fields of the answer (paths of keys) that must be equal on both servers. */
  fields?: string[][];
  /** Read this path first and send its resourceVersion in the body (an update as the platform makes it). */
  versionOf?: string;
  /** Send again until this holds (a controller's work, e.g. quota status), bounded by the test's timeout. */
  until?: (body: Record<string, unknown>) => boolean;
  /** Bearer token sent instead of the target's admin one. */
  token?: string;
}

const lease = (name: string, time: string) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name },
  spec: { holderIdentity: 'reaper-a', leaseDurationSeconds: 15, acquireTime: time, renewTime: time, leaseTransitions: 0 },
});
const container = (extra: Record<string, unknown> = {}) => ({ name: 'c', image: 'antidotelabs/utility', ...extra });
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [container()], automountServiceAccountToken: false, ...spec },
});
const job = (name: string, restartPolicy?: string) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: { backoffLimit: 1, template: { spec: { ...(restartPolicy ? { restartPolicy } : {}), containers: [container()] } } },
});
const service = (name: string, spec: Record<string, unknown> = { ports: [{ port: 22 }] }) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
const daemonSet = (name: string, selector: Record<string, unknown> | undefined = { matchLabels: { app: name } }, podSpec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name },
  spec: {
    ...(selector ? { selector } : {}),
    template: {
      metadata: { labels: { app: name } },
      spec: { initContainers: [container({ name: 'pull-0', command: ['/prepull/true'] })], containers: [container()], ...podSpec },
    },
  },
});
const core = '/api/v1/namespaces/{ns}';
const daemonSets = '/apis/apps/v1/namespaces/{ns}/daemonsets';
const leases = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const STATUS = [['code'], ['reason'], ['details', 'name'], ['details', 'kind']];
const RESOURCES = [
  ['spec', 'containers', '0', 'resources'],
  ['metadata', 'annotations', 'kubernetes.io/limit-ranger'],
];

export const DIFFERENTIAL_CASES: DifferentialCase[] = [
  // The reaper's Lease: MicroTime.
  { name: 'Lease with 3 fractional digits', method: 'POST', path: leases, body: lease('three', '2026-12-03T10:00:00.123Z'), message: true },
  { name: 'Lease without fractional digits', method: 'POST', path: leases, body: lease('none', '2026-12-03T10:00:00Z'), message: true },
  {
    name: 'Lease with 6 fractional digits',
    method: 'POST',
    path: leases,
    body: lease('six', '2026-12-03T10:00:00.123456Z'),
    fields: [
      ['spec', 'renewTime'],
      ['spec', 'holderIdentity'],
    ],
  },
  {
    name: 'Lease update without resourceVersion',
    method: 'PUT',
    path: `${leases}/six`,
    body: lease('six', '2026-12-03T10:00:04.000000Z'),
    message: true,
    fields: STATUS,
  },
  {
    name: 'Lease renewal',
    method: 'PUT',
    path: `${leases}/six`,
    versionOf: `${leases}/six`,
    body: lease('six', '2026-12-03T10:00:05.000000Z'),
    fields: [['spec', 'renewTime']],
  },
  {
    name: 'Lease read',
    method: 'GET',
    path: `${leases}/six`,
    fields: [
      ['spec', 'renewTime'],
      ['spec', 'acquireTime'],
    ],
  },
  // Namespaces and the usual reads.
  {
    name: 'namespace read',
    method: 'GET',
    path: core,
    fields: [
      ['status', 'phase'],
      ['spec', 'finalizers'],
    ],
  },
  { name: 'missing pod', method: 'GET', path: `${core}/pods/nothing`, message: true, fields: STATUS },
  // Authentication: a bearer token nobody has is refused before anything else, with the same Status.
  {
    name: 'a token nobody has',
    method: 'GET',
    path: `${core}/secrets`,
    token: 'no-such-token',
    message: true,
    fields: [['kind'], ['apiVersion'], ['status'], ['reason'], ['code'], ['details'], ['metadata']],
  },
  { name: 'pods by label', method: 'GET', path: `${core}/pods?labelSelector=antidoteManaged%3Dyes&limit=500`, fields: [['kind'], ['items']] },
  { name: 'duplicate namespace', method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'default' } }, message: true, fields: STATUS },
  {
    name: 'pod held by a finalizer',
    method: 'POST',
    path: `${core}/pods`,
    body: { ...pod('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } },
    fields: [['metadata', 'finalizers']],
  },
  // Admission: a pod whose ServiceAccount does not exist; LimitRanger and quota.
  {
    name: 'pod with a missing ServiceAccount',
    method: 'POST',
    path: `${core}/pods`,
    body: pod('no-account', { serviceAccountName: 'missing' }),
    message: true,
    fields: STATUS,
  },
  {
    name: 'LimitRange',
    method: 'POST',
    path: `${core}/limitranges`,
    body: {
      metadata: { name: 'limits' },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '64Mi' } }] },
    },
  },
  {
    name: 'ResourceQuota',
    method: 'POST',
    path: `${core}/resourcequotas`,
    body: { metadata: { name: 'quota' }, spec: { hard: { pods: '3', 'limits.cpu': '1', 'limits.memory': '1Gi', 'requests.cpu': '500m' } } },
  },
  {
    name: 'quota status from its controller',
    method: 'GET',
    path: `${core}/resourcequotas/quota`,
    fields: [
      ['status', 'hard'],
      ['status', 'used'],
    ],
    until: (body) => Boolean((body.status as { hard?: unknown } | undefined)?.hard),
  },
  // The quota admission plugin works from its own cache of quotas, which may see status.hard after a read
  // does: until an over-limit pod is refused (a dry run: nothing is stored), a pod may not be counted.
  {
    name: 'quota enforced by admission (dry run)',
    method: 'POST',
    path: `${core}/pods?dryRun=All`,
    body: pod('probe', { containers: [container({ resources: { limits: { cpu: '2' } } })] }),
    message: true,
    fields: STATUS,
    until: (body) => body.code === 403,
  },
  { name: 'dry run value not All', method: 'POST', path: `${core}/pods?dryRun=Some`, body: pod('probe'), fields: [['code'], ['reason']] },
  { name: 'pod given LimitRange defaults', method: 'POST', path: `${core}/pods`, body: pod('first'), fields: RESOURCES },
  {
    name: 'pod with a limit, its request defaulted to it',
    method: 'POST',
    path: `${core}/pods`,
    body: pod('over', { containers: [container({ resources: { limits: { cpu: '600m' } } })] }),
    message: true,
    fields: STATUS,
  },
  { name: 'second pod', method: 'POST', path: `${core}/pods`, body: pod('second'), fields: RESOURCES },
  { name: 'third pod over the pod count', method: 'POST', path: `${core}/pods`, body: pod('third'), message: true, fields: STATUS },
  // The scheduler's pre-pull DaemonSet (no nodes on the real server's side, so no status counts compared).
  {
    name: 'DaemonSet',
    method: 'POST',
    path: daemonSets,
    body: daemonSet('prepull'),
    fields: [
      ['spec', 'updateStrategy'],
      ['spec', 'revisionHistoryLimit'],
      ['spec', 'template', 'spec', 'restartPolicy'],
      ['spec', 'template', 'spec', 'initContainers', '0', 'command'],
      ['metadata', 'generation'],
    ],
  },
  { name: 'DaemonSet without a selector', method: 'POST', path: daemonSets, body: daemonSet('noselector', undefined), message: true, fields: STATUS },
  {
    name: 'DaemonSet selector not matching its template',
    method: 'POST',
    path: daemonSets,
    body: daemonSet('mismatch', { matchLabels: { app: 'other' } }),
    message: true,
    fields: STATUS,
  },
  {
    name: 'DaemonSet with restartPolicy Never',
    method: 'POST',
    path: daemonSets,
    body: daemonSet('never', undefined, { restartPolicy: 'Never' }),
    message: true,
    fields: STATUS,
  },
  {
    name: 'DaemonSet init container without an image',
    method: 'POST',
    path: daemonSets,
    body: daemonSet('noimage', { matchLabels: { app: 'noimage' } }, { initContainers: [{ name: 'pull-0' }] }),
    message: true,
    fields: STATUS,
  },
  {
    name: 'DaemonSet images changed',
    method: 'PATCH',
    path: `${daemonSets}/prepull`,
    body: { spec: { template: { spec: { initContainers: [container({ name: 'pull-0', image: 'antidotelabs/vqfx', command: ['/prepull/true'] })] } } } },
    contentType: 'application/merge-patch+json',
    fields: [
      ['metadata', 'generation'],
      ['spec', 'template', 'spec', 'initContainers'],
    ],
  },
  // The real DaemonSet controller writes the status meanwhile: a 409 then is that race, so the update is sent again.
  {
    name: 'DaemonSet replaced',
    method: 'PUT',
    path: `${daemonSets}/prepull`,
    versionOf: `${daemonSets}/prepull`,
    until: (body) => body.reason !== 'Conflict',
    body: daemonSet('prepull'),
    fields: [
      ['metadata', 'generation'],
      ['spec', 'template', 'spec', 'initContainers', '0', 'image'],
    ],
  },
  {
    name: 'DaemonSet selector changed',
    method: 'PATCH',
    path: `${daemonSets}/prepull`,
    body: { spec: { selector: { matchLabels: { app: 'prepull', more: 'x' } }, template: { metadata: { labels: { app: 'prepull', more: 'x' } } } } },
    contentType: 'application/merge-patch+json',
    fields: [...STATUS, ['details', 'causes', '0', 'field']],
  },
  { name: 'DaemonSets by label', method: 'GET', path: `${daemonSets}?labelSelector=app%3Dnone`, fields: [['kind'], ['items']] },
  // Validation (422) and decoding (400).
  { name: 'Service name not DNS-1035', method: 'POST', path: `${core}/services`, body: service('1-ssh'), message: true, fields: STATUS },
  { name: 'Service without ports', method: 'POST', path: `${core}/services`, body: service('noports', {}), message: true, fields: STATUS },
  { name: 'Service', method: 'POST', path: `${core}/services`, body: service('ssh'), fields: [['spec', 'ports']] },
  {
    name: 'Service clusterIP changed',
    method: 'PUT',
    path: `${core}/services/ssh`,
    body: service('ssh', { clusterIP: '127.96.255.254', ports: [{ port: 22 }] }),
    fields: [...STATUS, ['details', 'causes', '0', 'field']],
  },
  { name: 'Job without restartPolicy', method: 'POST', path: '/apis/batch/v1/namespaces/{ns}/jobs', body: job('unset'), message: true, fields: STATUS },
  {
    name: 'Job with restartPolicy Always',
    method: 'POST',
    path: '/apis/batch/v1/namespaces/{ns}/jobs',
    body: job('always', 'Always'),
    message: true,
    fields: STATUS,
  },
  {
    name: 'Job name over 63 characters',
    method: 'POST',
    path: '/apis/batch/v1/namespaces/{ns}/jobs',
    body: job(`config-${'x'.repeat(60)}`, 'Never'),
    message: true,
    fields: STATUS,
  },
  {
    name: 'ConfigMap key with a space',
    method: 'POST',
    path: `${core}/configmaps`,
    body: { metadata: { name: 'keys' }, data: { 'bad key': 'v' } },
    message: true,
    fields: STATUS,
  },
  {
    name: 'Secret with bad base64',
    method: 'POST',
    path: `${core}/secrets`,
    body: { metadata: { name: 'bad' }, data: { key: 'not base64!!' } },
    message: true,
  },
  {
    name: 'Secret stringData',
    method: 'POST',
    path: `${core}/secrets`,
    body: { metadata: { name: 'credentials' }, stringData: { password: 'antidotepassword' }, data: { user: 'YW50aWRvdGU=' } },
    fields: [['data'], ['stringData']],
  },
  {
    name: 'NetworkPolicy port 70000',
    method: 'POST',
    path: '/apis/networking.k8s.io/v1/namespaces/{ns}/networkpolicies',
    body: { metadata: { name: 'ports' }, spec: { podSelector: {}, ingress: [{ ports: [{ port: 70000 }] }] } },
    fields: [['code'], ['reason'], ['details', 'causes']],
  },
  {
    name: 'CRD name not plural.group',
    method: 'POST',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    body: {
      metadata: { name: 'widgets' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
    },
    message: true,
    fields: STATUS,
  },
  { name: 'pod without an image', method: 'POST', path: `${core}/pods`, body: pod('noimage', { containers: [{ name: 'c' }] }), message: true, fields: STATUS },
  { name: 'body kind not the path kind', method: 'POST', path: `${core}/pods`, body: { ...service('wrong'), metadata: { name: 'wrong' } }, message: true },
  {
    name: 'pod spec changed',
    method: 'PATCH',
    path: `${core}/pods/first`,
    body: { spec: { restartPolicy: 'Never' } },
    contentType: 'application/merge-patch+json',
    fields: [['code'], ['reason'], ['details', 'causes', '0', 'field']],
  },
  // Deleting the namespace (held by the pod's finalizer); finalize with no finalizers removes it at once and leaves a held pod behind.
  { name: 'namespace delete', method: 'DELETE', path: core, fields: [['status', 'phase']] },
  {
    name: 'namespace Terminating',
    method: 'GET',
    path: core,
    fields: [['status', 'phase']],
    until: (body) => (body.status as { phase?: string } | undefined)?.phase === 'Terminating',
  },
  {
    name: 'content create in a Terminating namespace',
    method: 'POST',
    path: `${core}/configmaps`,
    body: { metadata: { name: 'late' } },
    fields: [['code'], ['reason']],
  },
  {
    name: 'namespace finalize',
    method: 'PUT',
    path: `${core}/finalize`,
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: '{ns}' }, spec: { finalizers: [] } },
    fields: [['spec', 'finalizers']],
  },
  { name: 'namespace gone at once', method: 'GET', path: core, fields: [['code'], ['reason']] },
  { name: 'its held pod left behind', method: 'GET', path: `${core}/pods/held`, fields: [['metadata', 'finalizers']] },
];
