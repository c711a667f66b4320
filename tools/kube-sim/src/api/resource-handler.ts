import { randomBytes, randomUUID } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import type { DeleteOptions, KindBehaviour } from './behaviour.js';
import { clone, type KubeObject } from './object.js';
import { jsonPatch, mergePatch } from './patch.js';
import type { ResourceRequest } from './request.js';
import { apiVersionOf, type ResourceRegistry, type ResourceType } from './resources.js';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from './selectors.js';
import { alreadyExists, badRequest, conflict, forbidden, invalid, methodNotAllowed, notFound } from './status.js';
import { resourceKey, type ObjectStore } from './store.js';
import { checkBodyKind, decodeObject } from './decode.js';
import { checkImmutable } from './immutable.js';
import { validateObject } from './validation.js';

export interface HandlerResult {
  code: number;
  body: unknown;
}

/** Generic Kubernetes REST semantics over the store, with per-kind behaviour hooks. */
export class ResourceHandler {
  constructor(
    private readonly store: ObjectStore,
    private readonly registry: ResourceRegistry,
    private readonly behaviours: Map<string, KindBehaviour>,
  ) {}

  behaviourOf(type: ResourceType): KindBehaviour {
    return this.behaviours.get(resourceKey(type)) ?? {};
  }

  /** Sets apiVersion/kind as the request's version would show them. */
  present(type: ResourceType, object: KubeObject): KubeObject {
    return { apiVersion: apiVersionOf(type), kind: type.kind, ...object, metadata: object.metadata };
  }

  /** `decoded`: the JSON body already parsed (by field validation), for a create or update not to parse it again. */
  handle(request: ResourceRequest, rawBody: string, contentType: string, decoded?: Record<string, unknown>): HandlerResult {
    const { type, namespace, name } = request;
    switch (request.verb) {
      case 'get':
        return { code: 200, body: this.present(type, this.mustGet(type, namespace, name!)) };
      case 'list':
        return { code: 200, body: this.list(request) };
      case 'create':
        return this.create(type, namespace, requestBody(request, rawBody, contentType, decoded), { dryRun: dryRunOf(request) });
      case 'update':
        return { code: 200, body: this.update(request, requestBody(request, rawBody, contentType, decoded)) };
      case 'patch':
        return this.patch(request, rawBody, contentType);
      case 'delete':
        return { code: 200, body: this.delete(type, namespace, name!, deleteOptions(request, rawBody)) };
      case 'deletecollection':
        return { code: 200, body: this.deleteCollection(request) };
      case 'watch':
        throw methodNotAllowed('watch is served by the watch handler');
    }
  }

  mustGet(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const object = this.store.get(resourceKey(type), type.namespaced ? namespace : undefined, name);
    if (!object) throw notFound(type.plural, type.group, name);
    return object;
  }

  /** Objects matching the request's namespace and selectors. */
  matching(request: ResourceRequest): KubeObject[] {
    const labels = parseLabelSelector(request.query.get('labelSelector'));
    const fields = parseFieldSelector(request.query.get('fieldSelector'));
    return this.store.list(
      resourceKey(request.type),
      request.type.namespaced ? request.namespace : undefined,
      (object) => matchesLabels(labels, object.metadata.labels) && matchesFields(fields, object),
    );
  }

  private list(request: ResourceRequest): unknown {
    const all = this.matching(request);
    const limit = Number(request.query.get('limit') ?? 0);
    const offset = decodeContinue(request.query.get('continue'));
    const page = limit > 0 ? all.slice(offset, offset + limit) : all.slice(offset);
    const next = limit > 0 && offset + limit < all.length ? offset + limit : undefined;
    return {
      apiVersion: apiVersionOf(request.type),
      kind: `${request.type.kind}List`,
      metadata: {
        resourceVersion: String(this.store.currentVersion),
        ...(next !== undefined ? { continue: encodeContinue(next), remainingItemCount: all.length - next } : {}),
      },
      items: page.map((object) => this.present(request.type, object)),
    };
  }

  /** A create; with `dryRun`, every check and admission runs and nothing is stored (`?dryRun=All`). */
  create(type: ResourceType, namespace: string | undefined, input: KubeObject, options: { internal?: boolean; dryRun?: boolean } = {}): HandlerResult {
    const object = clone(input);
    object.metadata ??= {};
    if (type.namespaced) {
      if (object.metadata.namespace && namespace && object.metadata.namespace !== namespace) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      object.metadata.namespace = namespace ?? object.metadata.namespace ?? 'default';
      this.requireLiveNamespace(object.metadata.namespace, options.internal);
    } else delete object.metadata.namespace;
    if (!object.metadata.name && object.metadata.generateName)
      object.metadata.name = `${object.metadata.generateName}${randomBytes(3).toString('hex').slice(0, 5)}`;
    for (const field of ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'generation'] as const) delete object.metadata[field];
    object.apiVersion = apiVersionOf(type);
    object.kind = type.kind;
    decodeObject(type, object);
    validateObject(type, object);
    if (this.store.peekOne(resourceKey(type), object.metadata.namespace, object.metadata.name!))
      throw alreadyExists(type.plural, type.group, object.metadata.name!);
    const behaviour = this.behaviourOf(type);
    behaviour.prepareCreate?.(object);
    if (options.dryRun) {
      Object.assign(object.metadata, { uid: randomUUID(), creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
      return { code: 201, body: this.present(type, object) };
    }
    const stored = this.store.create(resourceKey(type), object);
    behaviour.created?.(stored);
    return { code: 201, body: this.present(type, stored) };
  }

  private requireLiveNamespace(namespace: string, internal?: boolean): void {
    const found = this.store.peekOne('/namespaces', undefined, namespace);
    if (!found) throw notFound('namespaces', '', namespace);
    if (found.metadata.deletionTimestamp && !internal) {
      throw forbidden(`unable to create new content in namespace ${namespace} because it is being terminated`);
    }
  }

  update(request: ResourceRequest, input: KubeObject): KubeObject {
    const { type, namespace, name } = request;
    const previous = this.mustGet(type, namespace, name!);
    const next = clone(input);
    next.metadata ??= {};
    if (next.metadata.name && next.metadata.name !== name) throw badRequest('the name of the object does not match the name on the URL');
    if (next.metadata.resourceVersion && next.metadata.resourceVersion !== previous.metadata.resourceVersion) throw conflict(type.plural, type.group, name!);
    if (!next.metadata.resourceVersion && !request.subresource && NO_UNCONDITIONAL_UPDATE.has(type.plural)) {
      throw invalid(type.plural, name!, [{ field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' }], type.group);
    }
    const merged =
      request.subresource === 'status'
        ? { ...previous, status: next.status }
        : request.subresource === 'finalize'
          ? { ...previous, spec: withFinalizers(previous.spec, next.spec?.finalizers) }
          : { ...next, status: type.plural === 'namespaces' ? previous.status : (next.status ?? previous.status) };
    return this.store_(type, previous, merged);
  }

  /** Writes a changed object, keeping identity fields, and removes it if it was only waiting for its finalizers. */
  store_(type: ResourceType, previous: KubeObject, next: KubeObject): KubeObject {
    next.metadata = {
      ...next.metadata,
      name: previous.metadata.name,
      namespace: previous.metadata.namespace,
      uid: previous.metadata.uid,
      creationTimestamp: previous.metadata.creationTimestamp,
    };
    if (previous.metadata.deletionTimestamp) next.metadata.deletionTimestamp = previous.metadata.deletionTimestamp;
    next.metadata.generation = (previous.metadata.generation ?? 1) + (JSON.stringify(next.spec) === JSON.stringify(previous.spec) ? 0 : 1);
    next.apiVersion = apiVersionOf(type);
    next.kind = type.kind;
    decodeObject(type, next);
    validateObject(type, next);
    checkImmutable(type, previous, next);
    const behaviour = this.behaviourOf(type);
    behaviour.prepareUpdate?.(previous, next);
    const stored = this.store.replace(resourceKey(type), next);
    behaviour.updated?.(stored);
    if (stored.metadata.deletionTimestamp && !stored.metadata.finalizers?.length && type.plural !== 'namespaces') {
      this.store.remove(resourceKey(type), stored.metadata.namespace, stored.metadata.name!);
      behaviour.deleted?.(stored, {});
    }
    return this.present(type, stored);
  }

  private patch(request: ResourceRequest, rawBody: string, contentType: string): HandlerResult {
    const { type, namespace, name } = request;
    const existing = this.store.get(resourceKey(type), type.namespaced ? namespace : undefined, name!);
    if (contentType.startsWith('application/apply-patch')) {
      const applied = parseBody(rawBody, 'application/yaml');
      if (!existing) return this.create(type, namespace, { ...applied, metadata: { ...applied.metadata, name } });
      return { code: 200, body: this.store_(type, existing, mergePatch(existing, stripIdentity(applied)) as KubeObject) };
    }
    if (!existing) throw notFound(type.plural, type.group, name!);
    let patched: KubeObject;
    try {
      const body: unknown = JSON.parse(rawBody || 'null');
      patched = (contentType.startsWith('application/json-patch+json') ? jsonPatch(existing, body) : mergePatch(existing, body)) as KubeObject;
    } catch (error) {
      if (error instanceof SyntaxError) throw badRequest(`invalid patch: ${error.message}`);
      throw error;
    }
    if (request.subresource === 'status') patched = { ...existing, status: patched.status };
    return { code: 200, body: this.store_(type, existing, patched) };
  }

  delete(type: ResourceType, namespace: string | undefined, name: string, options: DeleteOptions): KubeObject {
    const object = this.mustGet(type, namespace, name);
    const behaviour = this.behaviourOf(type);
    if (object.metadata.deletionTimestamp) return this.present(type, object);
    const decision = behaviour.deleting?.(object, options) ?? 'remove';
    if (decision === 'defer' || object.metadata.finalizers?.length) {
      const marked = this.store.get(resourceKey(type), object.metadata.namespace, name)!;
      marked.metadata.deletionTimestamp ??= new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      return this.present(type, this.store.replace(resourceKey(type), marked));
    }
    const removed = this.store.remove(resourceKey(type), object.metadata.namespace, name)!;
    behaviour.deleted?.(removed, options);
    return this.present(type, removed);
  }

  private deleteCollection(request: ResourceRequest): unknown {
    const items = this.matching(request).map((object) =>
      this.delete(request.type, object.metadata.namespace, object.metadata.name!, deleteOptions(request, '')),
    );
    return {
      apiVersion: apiVersionOf(request.type),
      kind: `${request.type.kind}List`,
      metadata: { resourceVersion: String(this.store.currentVersion) },
      items,
    };
  }

  registryOf(): ResourceRegistry {
    return this.registry;
  }
}

/** Kinds whose updates must name the resourceVersion they replace (the real server answers 422 otherwise). */
const NO_UNCONDITIONAL_UPDATE = new Set(['leases']);

/** A spec with the finalizers of a `finalize` call; none at all is left out, as the real server's JSON does. */
function withFinalizers(spec: KubeObject['spec'], finalizers: unknown): KubeObject['spec'] {
  const { finalizers: _old, ...rest } = spec ?? {};
  return Array.isArray(finalizers) && finalizers.length > 0 ? { ...rest, finalizers } : rest;
}

function parseBody(raw: string, contentType: string, decoded?: unknown): KubeObject {
  let value: unknown = decoded;
  try {
    value ??= contentType.includes('yaml') ? parseYaml(raw, { maxAliasCount: 50 }) : JSON.parse(raw);
  } catch (error) {
    throw badRequest(`the request body is not valid ${contentType.includes('yaml') ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('the request body must be an object');
  const object = value as KubeObject;
  object.metadata ??= {};
  return object;
}

/** `?dryRun=All` (the one value the API server knows); any other value is refused as it refuses it. */
function dryRunOf(request: ResourceRequest): boolean {
  const values = request.query.getAll('dryRun');
  const unknown = values.find((value) => value !== 'All');
  if (unknown !== undefined)
    throw invalid('CreateOptions', '', [{ field: 'dryRun', message: `Unsupported value: ["${values.join('", "')}"]: supported values: "All"` }], 'meta.k8s.io');
  return values.length > 0;
}

/** A create/update body: decoded, and of the path's kind and version. */
function requestBody(request: ResourceRequest, raw: string, contentType: string, decoded?: Record<string, unknown>): KubeObject {
  const object = parseBody(raw, contentType, decoded);
  if (!request.subresource) checkBodyKind(request.type, request.version, object);
  return object;
}

function stripIdentity(object: KubeObject): KubeObject {
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, ...metadata } = object.metadata;
  return { ...object, metadata };
}

function deleteOptions(request: ResourceRequest, rawBody: string): DeleteOptions {
  const fromQuery = request.query.get('propagationPolicy') as DeleteOptions['propagationPolicy'] | null;
  if (fromQuery) return { propagationPolicy: fromQuery };
  if (!rawBody) return {};
  try {
    const body = JSON.parse(rawBody) as { propagationPolicy?: DeleteOptions['propagationPolicy']; orphanDependents?: boolean };
    if (body.propagationPolicy) return { propagationPolicy: body.propagationPolicy };
    if (body.orphanDependents === false) return { propagationPolicy: 'Background' };
    return {};
  } catch {
    return {};
  }
}

const encodeContinue = (offset: number): string => Buffer.from(JSON.stringify({ offset })).toString('base64url');
function decodeContinue(token: string | null): number {
  if (!token) return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { offset: number };
    return Number.isInteger(offset) && offset >= 0 ? offset : 0;
  } catch {
    throw badRequest('invalid continue token');
  }
}
