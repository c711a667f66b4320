import { DNS1035_LABEL, DNS1123_LABEL, DNS1123_LABEL_MAX, DNS1123_SUBDOMAIN, DNS1123_SUBDOMAIN_MAX } from '@antidote/contracts';
import type { KubeObject } from './object.js';
import type { ResourceType } from './resources.js';
import { invalid, type Cause } from './status.js';
import { kindCauses } from './kind-validation.js';

/** A label key: an optional DNS-1123 subdomain prefix and `/`, then a name of up to 63 characters. */
const LABEL_KEY = new RegExp(`^(${DNS1123_SUBDOMAIN.source.slice(1, -1)}\\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$`);
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

const DNS1035_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** Name rules per resource: Services are DNS-1035 labels, namespaces RFC 1123 labels, the rest subdomains. */
const NAME_RULES: Record<string, { pattern: RegExp; max: number; message: string }> = {
  services: { pattern: DNS1035_LABEL, max: DNS1123_LABEL_MAX, message: DNS1035_MESSAGE },
  namespaces: { pattern: DNS1123_LABEL, max: DNS1123_LABEL_MAX, message: LABEL_MESSAGE },
};
const SUBDOMAIN_RULE = { pattern: DNS1123_SUBDOMAIN, max: DNS1123_SUBDOMAIN_MAX, message: SUBDOMAIN_MESSAGE };

function nameCauses(type: ResourceType, name: string): Cause[] {
  if (!name) return [{ field: 'metadata.name', message: 'Required value: name or generateName is required' }];
  // RBAC objects take path segment names (`system:discovery`).
  if (type.group === 'rbac.authorization.k8s.io') {
    return name === '.' || name === '..' || /[/%]/.test(name)
      ? [{ field: 'metadata.name', message: `Invalid value: "${name}": may not contain '/' or '%' and may not be '.' or '..'` }]
      : [];
  }
  const rule = NAME_RULES[type.plural] ?? SUBDOMAIN_RULE;
  const causes: Cause[] = [];
  if (name.length > rule.max) causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": must be no more than ${rule.max} characters` });
  if (!rule.pattern.test(name)) causes.push({ field: 'metadata.name', message: `Invalid value: "${name}": ${rule.message}` });
  return causes;
}

/** The checks a real API server does that matter to a client: names, labels, each kind's required and ranged fields (422). */
export function validateObject(type: ResourceType, object: KubeObject): void {
  const name = object.metadata.name ?? '';
  const causes = nameCauses(type, name);
  for (const [key, value] of Object.entries(object.metadata.labels ?? {})) {
    if (!LABEL_KEY.test(key)) causes.push({ field: 'metadata.labels', message: `Invalid value: "${key}": not a valid label key` });
    if (typeof value !== 'string' || !LABEL_VALUE.test(value))
      causes.push({ field: 'metadata.labels', message: `Invalid value: "${String(value)}": not a valid label value` });
  }
  causes.push(...kindCauses(type, object));
  if (causes.length > 0) throw invalid(type.kind, name, causes, type.group);
}
