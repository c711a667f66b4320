import { z } from 'zod';
import { leavesOf, unwrap } from './schema-walk.js';

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** The keys an object schema accepts at `path` (empty when `path` leads to no object). */
function keysAt(schema: z.ZodObject, path: readonly string[]): string[] {
  let current: z.ZodType = schema;
  for (const segment of path) {
    const inner = unwrap(current);
    if (!(inner instanceof z.ZodObject)) return [];
    current = inner.shape[segment] as z.ZodType;
    if (!current) return [];
  }
  const inner = unwrap(current);
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
}

/**
 * "Did you mean" for an unknown dotted key: the closest key at the same level (a typo, a case slip), else
 * a key of that name elsewhere (`adminToken` → `api.adminToken`).
 */
export function suggestKey(schema: z.ZodObject, unknownKey: string): string | undefined {
  const path = unknownKey.split('.');
  const name = path.pop() ?? '';
  const prefix = path.length ? `${path.join('.')}.` : '';
  const lowered = name.toLowerCase();
  const limit = Math.max(1, Math.floor(name.length / 3));
  const near = keysAt(schema, path)
    .map((key) => ({ key, cost: key.toLowerCase() === lowered ? 0 : distance(lowered, key.toLowerCase()) }))
    .filter(({ cost }) => cost <= limit)
    .sort((a, b) => a.cost - b.cost)[0];
  if (near) return `${prefix}${near.key}`;
  const elsewhere = leavesOf(schema).find((leaf) => leaf.path.at(-1)?.toLowerCase() === lowered);
  return elsewhere?.path.join('.');
}
