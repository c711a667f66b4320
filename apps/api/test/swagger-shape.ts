import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Property {
  type?: string;
  $ref?: string;
  items?: Property;
  additionalProperties?: Property;
}
type Definitions = Record<string, { properties?: Record<string, Property> }>;

const definitionsOf = (file: string): Definitions =>
  (JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'exp-api', `${file}.swagger.json`), 'utf8')) as { definitions: Definitions }).definitions;

const JS_TYPES: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  array: (value) => Array.isArray(value),
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
};

/**
 * Every difference between a JSON answer and a definition of the original's swagger file, field by
 * field and into nested definitions: a key missing (an empty list must still be `[]`, unless it is one of
 * `absent`: the original left that one out), a key of another case or not in the definition (unless
 * listed in `extras`), a value of another type.
 */
export function shapeProblems(file: string, definition: string, value: unknown, extras: readonly string[] = [], absent: readonly string[] = []): string[] {
  const at = definition;
  const definitions = definitionsOf(file);
  const check = (property: Property, item: unknown, path: string): string[] => {
    if (property.$ref) return walk(property.$ref.split('/').at(-1)!, item, path);
    if (property.type && !JS_TYPES[property.type]?.(item)) return [`${path}: expected ${property.type}, got ${JSON.stringify(item)}`];
    if (property.type === 'array' && property.items)
      return (item as unknown[]).flatMap((element, index) => check(property.items!, element, `${path}[${index}]`));
    if (property.type === 'object' && property.additionalProperties) {
      return Object.entries(item as Record<string, unknown>).flatMap(([key, element]) => check(property.additionalProperties!, element, `${path}.${key}`));
    }
    return [];
  };
  const walk = (name: string, item: unknown, path: string): string[] => {
    const properties = definitions[name]?.properties ?? {};
    if (!JS_TYPES.object(item)) return [`${path}: expected an object (${name})`];
    const record = item as Record<string, unknown>;
    const missing = Object.keys(properties)
      .filter((key) => !(key in record) && !(path === at && absent.includes(key)))
      .map((key) => `${path}.${key}: missing`);
    const unexpected = Object.keys(record)
      .filter((key) => !(key in properties) && !(path === at && extras.includes(key)))
      .map((key) => `${path}.${key}: not in ${name}`);
    const nested = Object.entries(properties).flatMap(([key, property]) => (key in record ? check(property, record[key], `${path}.${key}`) : []));
    return [...missing, ...unexpected, ...nested];
  };
  return walk(definition, value, at);
}
