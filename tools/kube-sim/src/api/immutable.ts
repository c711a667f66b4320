import type { KubeObject } from './object.js';
import type { ResourceType } from './resources.js';
import { invalid, type Cause } from './status.js';

const POD_UPDATE_MESSAGE =
  'Forbidden: pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** JSON with sorted keys: clients serialize fields in their own order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );
const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);
const goStrings = (values: unknown): string => `[]string{${((values as string[] | undefined) ?? []).map((value) => JSON.stringify(value)).join(', ')}}`;

/** A pod spec without the fields an update may change. */
function podSpecFrozen(spec: Record<string, unknown> | undefined): unknown {
  const withoutImages = (list: unknown) => ((list as Record<string, unknown>[] | undefined) ?? []).map(({ image: _image, ...rest }) => rest);
  const { activeDeadlineSeconds: _a, tolerations: _t, terminationGracePeriodSeconds: _g, ...rest } = spec ?? {};
  return { ...rest, containers: withoutImages(rest.containers), initContainers: withoutImages(rest.initContainers) };
}

const RULES: Record<string, (previous: KubeObject, next: KubeObject) => Cause[]> = {
  '/pods': (previous, next) => (same(podSpecFrozen(previous.spec), podSpecFrozen(next.spec)) ? [] : [{ field: 'spec', message: POD_UPDATE_MESSAGE }]),
  'batch/jobs': (previous, next) =>
    same(previous.spec?.template, next.spec?.template) ? [] : [{ field: 'spec.template', message: 'Invalid value: the pod template: field is immutable' }],
  'apps/daemonsets': (previous, next) =>
    same(previous.spec?.selector, next.spec?.selector) ? [] : [{ field: 'spec.selector', message: 'Invalid value: the selector: field is immutable' }],
  '/services': (previous, next) => {
    const before = previous.spec?.clusterIP;
    const after = next.spec?.clusterIP;
    return after !== undefined && after !== '' && before !== undefined && after !== before
      ? [{ field: 'spec.clusterIPs[0]', message: `Invalid value: ${goStrings([after])}: may not change once set` }]
      : [];
  },
  '/secrets': (previous, next) => typeCauses(previous, next),
  '/configmaps': (previous, next) => typeCauses(previous, next),
};

function typeCauses(previous: KubeObject, next: KubeObject): Cause[] {
  const causes: Cause[] = [];
  if (next.type !== undefined && previous.type !== undefined && next.type !== previous.type)
    causes.push({ field: 'type', message: `Invalid value: ${JSON.stringify(next.type)}: field is immutable` });
  if (previous.immutable === true && (!same(previous.data, next.data) || !same(previous.binaryData, next.binaryData)))
    causes.push({ field: 'data', message: 'Forbidden: field is immutable when `immutable` is set' });
  return causes;
}

/** Refuses (422) an update that changes what the real server keeps immutable. */
export function checkImmutable(type: ResourceType, previous: KubeObject, next: KubeObject): void {
  const causes = RULES[`${type.group}/${type.plural}`]?.(previous, next) ?? [];
  if (causes.length > 0) throw invalid(type.kind, previous.metadata.name ?? '', causes, type.group);
}
