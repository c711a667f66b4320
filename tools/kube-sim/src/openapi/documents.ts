import { createHash } from 'node:crypto';
import type { KubeObject } from '../api/object.js';
import { BUILTIN_RESOURCES, type ResourceType } from '../api/resources.js';
import { builtinSchemas } from './builtin-schemas.js';
import { crdComponentName, crdSchema } from './crd-schemas.js';
import { closure, refTo, type Schema, type SchemaSet } from './schema.js';

const isBuiltin = (type: ResourceType): boolean => BUILTIN_RESOURCES.some((b) => b.group === type.group && b.plural === type.plural);

/** Every schema of the served kinds (built-in and custom) and each kind's component name; read-only. */
export function schemaSetOf(
  types: ResourceType[],
  crdOf: (type: ResourceType) => KubeObject | undefined,
): SchemaSet & { componentOf(type: ResourceType): string } {
  const builtin = builtinSchemas();
  const custom = types.filter((t) => !isBuiltin(t));
  // Every write is validated against this set: the built-in schemas are shared, never copied; custom kinds'
  // schemas are layered over them (looked up first, the built-in ones through the prototype).
  const schemas: Record<string, Schema> =
    custom.length === 0
      ? builtin.schemas
      : Object.assign(
          Object.create(builtin.schemas) as Record<string, Schema>,
          Object.fromEntries(custom.map((type) => [crdComponentName(type), crdSchema(type, crdOf(type))])),
        );
  return { schemas, componentOf: (type) => (isBuiltin(type) ? builtin.componentOf(type) : crdComponentName(type)) };
}

const gvPath = (type: Pick<ResourceType, 'group' | 'version'>): string => (type.group ? `apis/${type.group}/${type.version}` : `api/${type.version}`);

const query = (name: string): unknown => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });
const WRITE_PARAMETERS = ['dryRun', 'fieldManager', 'fieldValidation'].map(query);

/** The item and collection paths of a kind, each operation tagged with its GVK (kubectl looks for `fieldValidation` on PATCH). */
function pathsOf(type: ResourceType, component: string): Record<string, unknown> {
  const gvk = { group: type.group, version: type.version, kind: type.kind };
  const base = `/${gvPath(type)}${type.namespaced ? '/namespaces/{namespace}' : ''}/${type.plural}`;
  const body = { content: { 'application/json': { schema: refTo(component) } } };
  const ok = { '200': { description: 'OK', content: { 'application/json': { schema: refTo(component) } } } };
  const operation = (action: string, extra: Record<string, unknown> = {}): unknown => ({
    operationId: `${action}${type.kind}`,
    responses: ok,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
    ...extra,
  });
  // Built-in kinds advertise no strategic merge patch here, so kubectl computes it from its own compiled types.
  const patchTypes = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];
  return {
    [base]: { get: operation('list'), post: operation('post', { parameters: WRITE_PARAMETERS, requestBody: body }) },
    [`${base}/{name}`]: {
      get: operation('get'),
      put: operation('put', { parameters: WRITE_PARAMETERS, requestBody: body }),
      patch: operation('patch', {
        parameters: [...WRITE_PARAMETERS, query('force')],
        requestBody: { content: Object.fromEntries(patchTypes.map((t) => [t, { schema: { type: 'object' } }])) },
      }),
      delete: operation('delete'),
    },
  };
}

/** `/openapi/v3/<api/v1 | apis/group/version>`: paths and schemas of one group-version; undefined when not served. */
export function openApiV3Document(path: string, types: ResourceType[], crdOf: (type: ResourceType) => KubeObject | undefined): unknown {
  const served = types.filter((type) => gvPath(type) === path);
  if (served.length === 0) return undefined;
  const set = schemaSetOf(served, crdOf);
  const components = served.map((type) => set.componentOf(type));
  const paths: Record<string, unknown> = Object.assign({}, ...served.map((type, index) => pathsOf(type, components[index]))) as Record<string, unknown>;
  const schemas: Record<string, Schema> = Object.fromEntries([...closure(components, set)].sort().map((name) => [name, set.schemas[name]]));
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.30.0' }, paths, components: { schemas } };
}

const hashOf = (value: unknown): string => createHash('sha512').update(JSON.stringify(value)).digest('hex').toUpperCase();

/** `/openapi/v3`: every group-version with the address (and content hash) of its document. */
export function openApiV3Index(types: ResourceType[], crdOf: (type: ResourceType) => KubeObject | undefined): unknown {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const path of [...new Set(types.map(gvPath))].sort())
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hashOf(openApiV3Document(path, types, crdOf))}` };
  return { paths };
}

/** `/openapi/v2` as JSON: the same schemas as Swagger 2.0 definitions. */
export function openApiV2(types: ResourceType[], crdOf: (type: ResourceType) => KubeObject | undefined): unknown {
  const set = schemaSetOf(types, crdOf);
  const v2 = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replaceAll('#/components/schemas/', '#/definitions/')) as unknown;
  const paths = Object.assign({}, ...types.map((type) => pathsOf(type, set.componentOf(type)))) as Record<string, Record<string, Record<string, unknown>>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      delete operation.requestBody;
      operation.parameters = ((operation.parameters as { name: string; in: string }[] | undefined) ?? []).map(({ name }) => ({
        name,
        in: 'query',
        type: 'string',
        uniqueItems: true,
      }));
      operation.responses = {
        '200': {
          description: 'OK',
          schema: (operation.responses as Record<string, { content: Record<string, { schema: unknown }> }>)['200'].content['application/json'].schema,
        },
      };
    }
  }
  return v2({ swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.30.0' }, paths, definitions: { ...builtinSchemas().schemas, ...set.schemas } });
}
