import type { KubeObject } from '../api/object.js';
import type { ResourceType } from '../api/resources.js';
import { OBJECT_META } from './builtin-schemas.js';
import { refTo, type Schema } from './schema.js';

interface CrdVersion {
  name: string;
  schema?: { openAPIV3Schema?: Schema };
}

/** `com.example.v1.Widget`: the component name the API server gives a custom kind. */
export const crdComponentName = (type: Pick<ResourceType, 'group' | 'version' | 'kind'>): string =>
  `${type.group.split('.').reverse().join('.')}.${type.version}.${type.kind}`;

/**
 * The published schema of a custom kind: its CRD's openAPIV3Schema with apiVersion, kind and metadata
 * (ObjectMeta) filled in as the API server does; no schema → anything goes.
 */
export function crdSchema(type: ResourceType, crd: KubeObject | undefined): Schema {
  const versions = (crd?.spec?.versions as CrdVersion[] | undefined) ?? [];
  const declared = versions.find((version) => version.name === type.version)?.schema?.openAPIV3Schema ?? {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  };
  return {
    ...declared,
    type: 'object',
    properties: { ...declared.properties, apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: refTo(OBJECT_META) },
    'x-kubernetes-group-version-kind': [{ group: type.group, version: type.version, kind: type.kind }],
  };
}
