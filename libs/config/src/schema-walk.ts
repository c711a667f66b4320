import { z } from 'zod';

/** What kind of value a configuration leaf holds, for parsing environment overrides. */
export type LeafKind = 'string' | 'number' | 'boolean' | 'list' | 'map';

export interface ConfigLeaf {
  path: string[];
  kind: LeafKind;
}

/** Strips `.default()`, `.optional()` and friends down to the schema that describes the value. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    if (current instanceof z.ZodDefault || current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else {
      return current;
    }
  }
}

function leafKind(schema: z.ZodType): LeafKind {
  if (schema instanceof z.ZodNumber) return 'number';
  if (schema instanceof z.ZodBoolean) return 'boolean';
  if (schema instanceof z.ZodArray) return 'list';
  if (schema instanceof z.ZodRecord) return 'map';
  return 'string';
}

/** Every leaf of an object schema, depth first. */
export function leavesOf(schema: z.ZodObject, prefix: string[] = []): ConfigLeaf[] {
  const leaves: ConfigLeaf[] = [];
  for (const [key, child] of Object.entries(schema.shape)) {
    const inner = unwrap(child as z.ZodType);
    const path = [...prefix, key];
    if (inner instanceof z.ZodObject) leaves.push(...leavesOf(inner, path));
    else leaves.push({ path, kind: leafKind(inner) });
  }
  return leaves;
}

/**
 * Removes keys the schema does not know from `value` (in place) and returns their dotted paths.
 * Records (free-form maps) are left alone.
 */
export function stripUnknownKeys(schema: z.ZodObject, value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const unknown: string[] = [];
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const child = schema.shape[key] as z.ZodType | undefined;
    const path = prefix ? `${prefix}.${key}` : key;
    if (!child) {
      unknown.push(path);
      delete record[key];
      continue;
    }
    const inner = unwrap(child);
    if (inner instanceof z.ZodObject) unknown.push(...stripUnknownKeys(inner, record[key], path));
  }
  return unknown;
}
