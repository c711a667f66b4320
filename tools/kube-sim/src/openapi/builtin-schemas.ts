import * as k8s from '@kubernetes/client-node';
import { BUILTIN_RESOURCES, type ResourceType } from '../api/resources.js';
import { refTo, type Schema, type SchemaSet } from './schema.js';

/**
 * Schemas of the built-in kinds, derived from @kubernetes/client-node's generated models (each model class
 * carries the field names and types of its Kubernetes OpenAPI definition). Component names follow the API
 * server's (`io.k8s.api.core.v1.PodSpec`).
 */
interface Attribute {
  baseName: string;
  type: string;
  format: string;
}
type ModelClass = { attributeTypeMap?: Attribute[] };

const models = k8s as unknown as Record<string, ModelClass | undefined>;
const attributesOf = (model: string): Attribute[] | undefined => (Array.isArray(models[model]?.attributeTypeMap) ? models[model].attributeTypeMap : undefined);

const PACKAGES: Record<string, string> = {
  '': 'io.k8s.api.core.v1',
  apps: 'io.k8s.api.apps.v1',
  batch: 'io.k8s.api.batch.v1',
  'networking.k8s.io': 'io.k8s.api.networking.v1',
  'coordination.k8s.io': 'io.k8s.api.coordination.v1',
  'rbac.authorization.k8s.io': 'io.k8s.api.rbac.v1',
  'apiextensions.k8s.io': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1',
};
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const OBJECT_META = `${META}.ObjectMeta`;
const META_TYPES = new Set([
  'ObjectMeta',
  'ListMeta',
  'LabelSelector',
  'LabelSelectorRequirement',
  'OwnerReference',
  'ManagedFieldsEntry',
  'Condition',
  'Status',
  'StatusDetails',
  'StatusCause',
  'DeleteOptions',
  'Preconditions',
  'Time',
  'MicroTime',
]);

/** The client-node class of a built-in kind (core Event is `CoreV1Event`). */
export const modelOf = (type: Pick<ResourceType, 'group' | 'kind'>): string => (type.group === '' && type.kind === 'Event' ? 'CoreV1Event' : `V1${type.kind}`);

const shortName = (model: string): string => model.replace(/^[A-Z][a-z]+V\d+(?=[A-Z])/, '').replace(/^V\d+(alpha\d+|beta\d+)?(?=[A-Z])/, '');

function build(): SchemaSet & { names: Map<string, string> } {
  const schemas: Record<string, Schema> = {};
  const names = new Map<string, string>();
  const queue: [string, string][] = [];
  const nameOf = (model: string, pkg: string): string => {
    let name = names.get(model);
    if (!name) {
      const short = shortName(model);
      name = `${META_TYPES.has(short) ? META : pkg}.${short}`;
      names.set(model, name);
      queue.push([model, pkg]);
    }
    return name;
  };
  const typeSchema = (type: string, format: string, pkg: string): Schema => {
    const array = /^Array<(.+)>$/.exec(type);
    if (array) return { type: 'array', items: typeSchema(array[1], '', pkg) };
    const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
    if (map) return { type: 'object', additionalProperties: typeSchema(map[1], '', pkg) };
    if (type === 'string')
      return format && format !== 'int-or-string'
        ? { type: 'string', format }
        : format === 'int-or-string'
          ? { 'x-kubernetes-int-or-string': true }
          : { type: 'string' };
    if (type === 'Date') return { type: 'string', format: format || 'date-time' };
    if (type === 'number') return format === 'int32' || format === 'int64' ? { type: 'integer', format } : { type: 'number', format: format || 'double' };
    if (type === 'boolean') return { type: 'boolean' };
    if (type === 'IntOrString') return { 'x-kubernetes-int-or-string': true };
    if (type === 'any') return { 'x-kubernetes-preserve-unknown-fields': true };
    return attributesOf(type) ? refTo(nameOf(type, pkg)) : { 'x-kubernetes-preserve-unknown-fields': true };
  };
  for (const type of BUILTIN_RESOURCES) nameOf(modelOf(type), PACKAGES[type.group]);
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [model, pkg] = next;
    const attributes = attributesOf(model) ?? [];
    schemas[names.get(model)!] = { type: 'object', properties: Object.fromEntries(attributes.map((a) => [a.baseName, typeSchema(a.type, a.format, pkg)])) };
  }
  for (const type of BUILTIN_RESOURCES) {
    schemas[names.get(modelOf(type))!]['x-kubernetes-group-version-kind'] = [{ group: type.group, version: type.version, kind: type.kind }];
  }
  return { schemas, names };
}

let built: ReturnType<typeof build> | undefined;

/** Every built-in schema (built once), and the component name of each built-in kind. */
export function builtinSchemas(): SchemaSet & { componentOf(type: Pick<ResourceType, 'group' | 'kind'>): string } {
  built ??= build();
  const { schemas, names } = built;
  return { schemas, componentOf: (type) => names.get(modelOf(type))! };
}
