import type { KubeObject } from './object.js';
import type { ResourceType } from './resources.js';
import type { Cause } from './status.js';

interface Container {
  name?: string;
  image?: string;
}
interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  restartPolicy?: string;
}

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

function podSpecCauses(spec: PodSpec | undefined, at: string): Cause[] {
  const causes: Cause[] = [];
  const containers = spec?.containers ?? [];
  if (containers.length === 0) causes.push({ field: `${at}.containers`, message: 'Required value' });
  for (const [field, list] of [
    ['containers', containers],
    ['initContainers', spec?.initContainers ?? []],
  ] as const) {
    list.forEach((container, index) => {
      if (!container.name) causes.push({ field: `${at}.${field}[${index}].name`, message: 'Required value' });
      if (!container.image) causes.push({ field: `${at}.${field}[${index}].image`, message: 'Required value' });
    });
  }
  return causes;
}

function jobCauses(job: KubeObject): Cause[] {
  const template = job.spec?.template as { spec?: PodSpec } | undefined;
  const causes = podSpecCauses(template?.spec, 'spec.template.spec');
  const policy = template?.spec?.restartPolicy;
  // Unset and Always are refused alike, with this wording.
  if (policy !== 'OnFailure' && policy !== 'Never')
    causes.push({ field: 'spec.template.spec.restartPolicy', message: 'Required value: valid values: "OnFailure", "Never"' });
  // The job controller labels its pods with the job's name, and label values have at most 63 characters.
  const name = job.metadata.name ?? '';
  if (name.length > 63) causes.push({ field: 'spec.template.labels', message: `Invalid value: "${name}": must be no more than 63 characters` });
  return causes;
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** Whether a `metav1.LabelSelector` selects these labels (an absent selector selects nothing). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  return (
    byLabels &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
      if (operator === 'In') return key in labels && values.includes(labels[key]);
      if (operator === 'NotIn') return !(key in labels) || !values.includes(labels[key]);
      return operator === 'Exists' ? key in labels : !(key in labels);
    })
  );
}

function daemonSetCauses(set: KubeObject): Cause[] {
  const spec = (set.spec ?? {}) as { selector?: LabelSelector; template?: { metadata?: { labels?: Record<string, string> }; spec?: PodSpec } };
  const labels = spec.template?.metadata?.labels ?? {};
  const causes: Cause[] = [];
  if (!spec.selector) causes.push({ field: 'spec.selector', message: 'Required value' });
  else if (Object.keys(spec.selector.matchLabels ?? {}).length + (spec.selector.matchExpressions ?? []).length === 0)
    causes.push({ field: 'spec.selector', message: 'Invalid value: {}: empty selector is invalid for daemonset' });
  if (!selects(spec.selector, labels))
    causes.push({ field: 'spec.template.metadata.labels', message: `Invalid value: ${goMap(labels)}: \`selector\` does not match template \`labels\`` });
  causes.push(...podSpecCauses(spec.template?.spec, 'spec.template.spec'));
  const policy = spec.template?.spec?.restartPolicy;
  if (policy !== undefined && policy !== 'Always')
    causes.push({ field: 'spec.template.spec.restartPolicy', message: `Unsupported value: "${policy}": supported values: "Always"` });
  return causes;
}

const goMap = (map: Record<string, string>): string =>
  `map[string]string{${Object.entries(map)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`)
    .join(', ')}}`;

function serviceCauses(service: KubeObject): Cause[] {
  const spec = service.spec ?? {};
  const ports = (spec.ports as { port?: number }[] | undefined) ?? [];
  const causes: Cause[] = [];
  if (ports.length === 0 && spec.clusterIP !== 'None' && spec.type !== 'ExternalName') causes.push({ field: 'spec.ports', message: 'Required value' });
  ports.forEach((port, index) => {
    if (!Number.isInteger(port.port) || port.port! < 1 || port.port! > 65535)
      causes.push({ field: `spec.ports[${index}].port`, message: `Invalid value: ${String(port.port)}: must be between 1 and 65535, inclusive` });
  });
  return causes;
}

function keyCauses(object: KubeObject, fields: string[]): Cause[] {
  return fields.flatMap((field) =>
    Object.keys((object[field] as Record<string, unknown> | undefined) ?? {})
      .filter((key) => !CONFIG_KEY.test(key) || key.length > 253)
      .map((key) => ({ field: `${field}[${key}]`, message: `Invalid value: "${key}": ${CONFIG_KEY_MESSAGE}` })),
  );
}

function networkPolicyCauses(policy: KubeObject): Cause[] {
  const causes: Cause[] = [];
  for (const direction of ['ingress', 'egress'] as const) {
    const rules = (policy.spec?.[direction] as { ports?: { port?: number | string }[] }[] | undefined) ?? [];
    rules.forEach((rule, r) =>
      (rule.ports ?? []).forEach((port, p) => {
        if (typeof port.port === 'number' && (port.port < 1 || port.port > 65535)) {
          causes.push({ field: `spec.${direction}[${r}].ports[${p}].port`, message: `Invalid value: ${port.port}: must be between 1 and 65535, inclusive` });
        }
      }),
    );
  }
  return causes;
}

function crdCauses(crd: KubeObject): Cause[] {
  const spec = crd.spec as { group?: string; names?: { plural?: string } } | undefined;
  const name = crd.metadata.name ?? '';
  if (spec?.group && spec.names?.plural && name !== `${spec.names.plural}.${spec.group}`) {
    return [{ field: 'metadata.name', message: `Invalid value: "${name}": must be spec.names.plural+"."+spec.group` }];
  }
  return [];
}

const BY_RESOURCE: Record<string, (object: KubeObject) => Cause[]> = {
  '/pods': (pod) => podSpecCauses(pod.spec, 'spec'),
  'batch/jobs': jobCauses,
  'apps/daemonsets': daemonSetCauses,
  '/services': serviceCauses,
  '/configmaps': (map) => keyCauses(map, ['data', 'binaryData']),
  '/secrets': (secret) => keyCauses(secret, ['data']),
  'networking.k8s.io/networkpolicies': networkPolicyCauses,
  'apiextensions.k8s.io/customresourcedefinitions': crdCauses,
};

/** What one kind's validation refuses (422 causes). */
export function kindCauses(type: ResourceType, object: KubeObject): Cause[] {
  return BY_RESOURCE[`${type.group}/${type.plural}`]?.(object) ?? [];
}
