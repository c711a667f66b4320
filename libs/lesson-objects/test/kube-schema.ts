/**
 * Test helper: checks builder output the way the API server would see it. The object is what goes on
 * the wire (our client sends it as is); it must survive a round trip through client-node's typed models
 * unchanged (no field the Kubernetes types do not know), and is validated against the
 * JSON schema generated from the Kubernetes OpenAPI spec (`kubernetes-models`). Names, label keys and
 * values are checked with the API server's rules, which the OpenAPI schema does not carry.
 */
import { ObjectSerializer } from '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js';
import { DaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { LimitRange } from 'kubernetes-models/v1/LimitRange';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Pod } from 'kubernetes-models/v1/Pod';
import { ResourceQuota } from 'kubernetes-models/v1/ResourceQuota';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { isDns1035Label, isDnsLabel, isDnsSubdomain, isLabelValue } from '../src/naming/dns-name.js';

interface Validating {
  validate(): void;
}
type ModelClass = new (data: never) => Validating;

const KINDS: Record<string, { type: string; model: ModelClass; name: (name: string) => boolean }> = {
  'v1/Namespace': { type: 'V1Namespace', model: Namespace, name: isDnsLabel },
  'v1/Pod': { type: 'V1Pod', model: Pod, name: isDnsSubdomain },
  'v1/Service': { type: 'V1Service', model: Service, name: isDns1035Label },
  'v1/Secret': { type: 'V1Secret', model: Secret, name: isDnsSubdomain },
  'v1/ResourceQuota': { type: 'V1ResourceQuota', model: ResourceQuota, name: isDnsSubdomain },
  'v1/LimitRange': { type: 'V1LimitRange', model: LimitRange, name: isDnsSubdomain },
  'apps/v1/DaemonSet': { type: 'V1DaemonSet', model: DaemonSet, name: isDnsSubdomain },
  'batch/v1/Job': { type: 'V1Job', model: Job, name: (name) => isDnsSubdomain(name) && isLabelValue(name) },
  'networking.k8s.io/v1/Ingress': { type: 'V1Ingress', model: Ingress, name: isDnsSubdomain },
  'networking.k8s.io/v1/NetworkPolicy': { type: 'V1NetworkPolicy', model: NetworkPolicy, name: isDnsSubdomain },
};

const LABEL_KEY_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

function checkLabelKey(key: string): string | undefined {
  const [prefix, name] = key.includes('/') ? key.split('/', 2) : [undefined, key];
  if (prefix !== undefined && !isDnsSubdomain(prefix)) return `label/annotation key prefix ${prefix} is not a DNS subdomain`;
  if (name.length > 63 || !LABEL_KEY_NAME.test(name)) return `label/annotation key ${key} is invalid`;
  return undefined;
}

const clean = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** JSON with object keys sorted, so that only content is compared. */
function canonical(value: unknown): string {
  return JSON.stringify(clean(value), (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  );
}

interface KubeObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
}

/** Problems found (empty = valid). */
export function kubeSchemaProblems(object: KubeObjectLike): string[] {
  const key = `${object.apiVersion}/${object.kind}`;
  const kind = KINDS[key];
  if (!kind) return [`no schema for ${key}`];
  const problems: string[] = [];
  const wire = clean(object);
  const back = ObjectSerializer.serialize(ObjectSerializer.deserialize(wire, kind.type, ''), kind.type, '') as unknown;
  const original = canonical(wire);
  if (canonical(back) !== original) problems.push(`fields unknown to ${kind.type} (lost in the round trip): ${original} vs ${canonical(back)}`);
  try {
    new kind.model(wire as never).validate();
  } catch (error) {
    problems.push(`schema: ${(error as Error).message}`);
  }
  const name = object.metadata?.name ?? '';
  if (!kind.name(name)) problems.push(`name ${JSON.stringify(name)} is not valid for ${key}`);
  for (const [label, value] of Object.entries(object.metadata?.labels ?? {})) {
    const keyProblem = checkLabelKey(label);
    if (keyProblem) problems.push(keyProblem);
    if (!isLabelValue(value)) problems.push(`label value ${label}=${value} is invalid`);
  }
  for (const annotation of Object.keys(object.metadata?.annotations ?? {})) {
    const keyProblem = checkLabelKey(annotation);
    if (keyProblem) problems.push(keyProblem);
  }
  return problems;
}

/** The wire form of a built object (what the client sends: the object as JSON). */
export function wireForm(object: KubeObjectLike): Record<string, unknown> {
  return clean(object) as Record<string, unknown>;
}
