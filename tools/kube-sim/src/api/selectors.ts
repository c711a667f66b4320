import { badRequest } from './status.js';
import type { KubeObject } from './object.js';

type Requirement =
  { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | '!exists' } | { key: string; op: '=' | '!='; values: [string] };

/** Splits on commas that are not inside `( … )`. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  if (current.trim()) parts.push(current);
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** Parses a label selector: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`. */
export function parseLabelSelector(text: string | null): Requirement[] {
  if (!text) return [];
  return splitTopLevel(text).map((part): Requirement => {
    const set = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
    if (set)
      return {
        key: set[1],
        op: set[2] as 'in' | 'notin',
        values: set[3]
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      };
    const neq = /^([^\s!=]+)\s*!=\s*(\S*)$/.exec(part);
    if (neq) return { key: neq[1], op: '!=', values: [neq[2]] };
    const eq = /^([^\s!=]+)\s*==?\s*(\S*)$/.exec(part);
    if (eq) return { key: eq[1], op: '=', values: [eq[2]] };
    if (/^![^\s!=]+$/.test(part)) return { key: part.slice(1), op: '!exists' };
    if (/^[^\s!=(),]+$/.test(part)) return { key: part, op: 'exists' };
    throw badRequest(`unable to parse requirement: ${part}`);
  });
}

export function matchesLabels(requirements: Requirement[], labels: Record<string, string> = {}): boolean {
  return requirements.every((req) => {
    const value = labels[req.key];
    switch (req.op) {
      case 'exists':
        return value !== undefined;
      case '!exists':
        return value === undefined;
      case '=':
        return value === req.values[0];
      case '!=':
        return value !== req.values[0];
      case 'in':
        return value !== undefined && req.values.includes(value);
      case 'notin':
        return value === undefined || !req.values.includes(value);
    }
  });
}

type FieldRequirement = { path: string[]; equal: boolean; value: string };

export function parseFieldSelector(text: string | null): FieldRequirement[] {
  if (!text) return [];
  return splitTopLevel(text).map((part) => {
    const match = /^([\w.]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!match) throw badRequest(`invalid field selector: ${part}`);
    return { path: match[1].split('.'), equal: match[2] !== '!=', value: match[3] };
  });
}

export function matchesFields(requirements: FieldRequirement[], object: KubeObject): boolean {
  return requirements.every((req) => {
    let node: unknown = object;
    for (const segment of req.path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
    const actual = typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean' ? String(node) : '';
    return req.equal ? actual === req.value : actual !== req.value;
  });
}
