import type { KubeObject } from '../api/object.js';
import type { ResourceRegistry, ResourceType } from '../api/resources.js';
import { ApiError } from '../api/status.js';
import type { ObjectStore } from '../api/store.js';
import { openApiV2, openApiV3Document, openApiV3Index } from './documents.js';

/** The CRD that defines a custom type (undefined for built-in kinds): the stored object, for reading only. */
export const crdLookup =
  (store: ObjectStore) =>
  (type: Pick<ResourceType, 'group' | 'plural'>): KubeObject | undefined =>
    store.peekOne('apiextensions.k8s.io/customresourcedefinitions', undefined, `${type.plural}.${type.group}`);

/**
 * `/openapi/v2` (JSON; the protobuf form is not served: 406) and `/openapi/v3[/<group-version>]`;
 * undefined when the path is not an OpenAPI one.
 */
export function openApi(path: string, accept: string | undefined, registry: ResourceRegistry, store: ObjectStore): unknown {
  const types = registry.all();
  const crdOf = crdLookup(store);
  if (path === '/openapi/v2') {
    if (!(accept ?? '').includes('json') && (accept ?? '').includes('protobuf'))
      throw new ApiError(406, 'NotAcceptable', 'only application/json is served for /openapi/v2');
    return openApiV2(types, crdOf);
  }
  if (path === '/openapi/v3' || path === '/openapi/v3/') return openApiV3Index(types, crdOf);
  if (path.startsWith('/openapi/v3/')) {
    const document = openApiV3Document(path.slice('/openapi/v3/'.length), types, crdOf);
    if (document === undefined) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    return document;
  }
  return undefined;
}
