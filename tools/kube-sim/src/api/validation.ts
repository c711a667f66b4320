import { DNS1123_SUBDOMAIN, isDnsLabel, isDnsSubdomain } from '@antidote/contracts';
import type { KubeObject } from './object.js';
import type { ResourceType } from './resources.js';
import { invalid } from './status.js';

/** Kinds whose names must be DNS-1123 labels (≤ 63); the rest take subdomains (≤ 253). */
const LABEL_NAMED = new Set(['namespaces', 'services']);
/** A label key: an optional DNS-1123 subdomain prefix and `/`, then a name of up to 63 characters. */
const LABEL_KEY = new RegExp(`^(${DNS1123_SUBDOMAIN.source.slice(1, -1)}\\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$`);
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

/** The checks a real API server does that matter to a client: names, labels, required fields. */
export function validateObject(type: ResourceType, object: KubeObject): void {
  const name = object.metadata.name ?? '';
  const causes: { field: string; message: string }[] = [];
  if (!name) causes.push({ field: 'metadata.name', message: 'Required value: name or generateName is required' });
  else if (LABEL_NAMED.has(type.plural)) {
    if (!isDnsLabel(name)) causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (at most 63 characters)` });
  } else if (!isDnsSubdomain(name)) {
    causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'` });
  }
  for (const [key, value] of Object.entries(object.metadata.labels ?? {})) {
    if (!LABEL_KEY.test(key)) causes.push({ field: 'metadata.labels', message: `Invalid value: "${key}": not a valid label key` });
    if (typeof value !== 'string' || !LABEL_VALUE.test(value)) causes.push({ field: 'metadata.labels', message: `Invalid value: "${String(value)}": not a valid label value` });
  }
  if (type.plural === 'pods') {
    const containers = (object.spec?.containers as unknown[] | undefined) ?? [];
    if (containers.length === 0) causes.push({ field: 'spec.containers', message: 'Required value' });
  }
  if (type.plural === 'jobs' && !(object.spec?.template as { spec?: { containers?: unknown[] } } | undefined)?.spec?.containers?.length) {
    causes.push({ field: 'spec.template.spec.containers', message: 'Required value' });
  }
  if (causes.length > 0) throw invalid(type.kind, name, causes);
}
