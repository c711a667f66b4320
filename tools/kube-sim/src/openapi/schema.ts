/** The part of an OpenAPI v3 schema kube-sim writes and reads (built-in kinds and CRD structural schemas alike). */
export interface Schema {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  allOf?: Schema[];
  $ref?: string;
  required?: string[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  [extension: string]: unknown;
}

export interface SchemaSet {
  /** Component name → schema; `$ref`s point at `#/components/schemas/<name>`. */
  schemas: Record<string, Schema>;
}

const PREFIX = '#/components/schemas/';

export const refTo = (name: string): Schema => ({ $ref: `${PREFIX}${name}` });

/** Follows `$ref` (and a single-element `allOf`, as the API server writes refs with siblings). */
export function resolve(schema: Schema | undefined, set: SchemaSet): Schema | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current.$ref?.startsWith(PREFIX)) current = set.schemas[current.$ref.slice(PREFIX.length)];
    else if (current.allOf?.length === 1 && !current.properties) current = { ...current.allOf[0], ...withoutAllOf(current) };
    else return current;
  }
  return current;
}

const withoutAllOf = ({ allOf: _allOf, ...rest }: Schema): Schema => rest;

/** The component names a schema refers to, transitively (the schemas a document must carry). */
export function closure(roots: string[], set: SchemaSet): Set<string> {
  const seen = new Set<string>();
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(visit);
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(PREFIX)) add(child.slice(PREFIX.length));
      else visit(child);
    }
  };
  const add = (name: string): void => {
    if (seen.has(name) || !set.schemas[name]) return;
    seen.add(name);
    visit(set.schemas[name]);
  };
  roots.forEach(add);
  return seen;
}
