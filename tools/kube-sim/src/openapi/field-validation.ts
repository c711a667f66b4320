import { parse as parseYaml } from 'yaml';
import type { ResourceRequest } from '../api/request.js';
import { ApiError } from '../api/status.js';
import { crdLookup } from './openapi.js';
import { schemaSetOf } from './documents.js';
import { resolve, type Schema, type SchemaSet } from './schema.js';
import type { ObjectStore } from '../api/store.js';

type Json = Record<string, unknown>;

/** Removes the fields the schema does not know (as decoding does) and returns their paths (`spec.containers[0].foo`). */
export function pruneUnknown(value: unknown, schema: Schema | undefined, set: SchemaSet, path = ''): string[] {
  const resolved = resolve(schema, set);
  if (!resolved || resolved['x-kubernetes-preserve-unknown-fields'] || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => pruneUnknown(item, resolved.items, set, `${path}[${index}]`));
  const object = value as Json;
  const unknown: string[] = [];
  for (const key of Object.keys(object)) {
    // Strategic merge patch directives (`$patch`, `$setElementOrder/…`) are not fields.
    if (key.startsWith('$')) continue;
    const child = `${path ? `${path}.` : ''}${key}`;
    const property = resolved.properties?.[key] ?? (typeof resolved.additionalProperties === 'object' ? resolved.additionalProperties : undefined);
    if (property) unknown.push(...pruneUnknown(object[key], property, set, child));
    else if (resolved.properties && resolved.additionalProperties !== true) {
      unknown.push(child);
      delete object[key];
    }
  }
  return unknown;
}

export interface CheckedBody {
  body: string;
  contentType: string;
  /** `Warning` header values for unknown fields (fieldValidation Warn, the default). */
  warnings: string[];
  /** A JSON body's object as parsed here (unknown fields dropped): what `body` decodes to, not parsed again. */
  decoded?: Record<string, unknown>;
}

/**
 * Field validation of a write (`?fieldValidation=Strict|Warn|Ignore`, Warn by default, as a 1.27+ API
 * server): unknown fields are dropped; Strict refuses them with 400, Warn answers with Warning headers.
 */
export function validateFields(request: ResourceRequest, raw: string, contentType: string, store: ObjectStore): CheckedBody {
  const unchanged = { body: raw, contentType, warnings: [] };
  const writes = request.verb === 'create' || request.verb === 'update' || request.verb === 'patch';
  if (!writes || !raw || contentType.startsWith('application/json-patch') || (request.subresource && request.subresource !== 'status')) return unchanged;
  let parsed: unknown;
  try {
    parsed = contentType.includes('yaml') ? parseYaml(raw, { maxAliasCount: 50 }) : JSON.parse(raw);
  } catch {
    return unchanged; // the handler reports bad bodies
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return unchanged;
  const set = schemaSetOf([request.type], crdLookup(store));
  const unknown = pruneUnknown(parsed, set.schemas[set.componentOf(request.type)], set);
  const directive = request.query.get('fieldValidation') ?? 'Warn';
  if (unknown.length > 0 && directive === 'Strict') {
    const { kind, version } = request.type;
    const decoding = `strict decoding error: ${unknown.map((field) => `unknown field "${field}"`).join(', ')}`;
    throw new ApiError(400, 'BadRequest', request.verb === 'patch' ? decoding : `${kind} in version "${version}" cannot be handled as a ${kind}: ${decoding}`);
  }
  // Nothing pruned from a JSON body: the body as it came (no second serialisation).
  if (unknown.length === 0 && !contentType.includes('yaml')) return { ...unchanged, decoded: parsed as Record<string, unknown> };
  const warnings = directive === 'Ignore' ? [] : unknown.map((field) => `299 - "unknown field \\"${field}\\""`);
  return {
    body: JSON.stringify(parsed),
    contentType: contentType.includes('yaml') && !contentType.startsWith('application/apply-patch') ? 'application/json' : contentType,
    warnings,
    ...(contentType.includes('yaml') ? {} : { decoded: parsed as Record<string, unknown> }),
  };
}
