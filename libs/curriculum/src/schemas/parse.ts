import type { z } from 'zod';
import type { ProblemList } from '../problem.js';
import { KNOWN_KEYS } from './curriculum.schemas.js';

/** `endpoints[1].presentations[0].port` from a zod path. */
export const fieldPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');

/** Every schema issue of a file as a problem; the parsed value when there were none. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown, file: string, problems: ProblemList): z.output<T> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) problems.add(file, 'schema', issue.message, fieldPath(issue.path) || undefined);
  return undefined;
}

type Level = keyof typeof KNOWN_KEYS;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function unknownKeysAt(value: unknown, level: Level, path: string, file: string, problems: ProblemList): void {
  if (!isObject(value)) return;
  for (const key of Object.keys(value)) {
    if (!(KNOWN_KEYS[level] as readonly string[]).includes(key))
      problems.warn(file, 'unknown-key', `unknown key "${key}" is ignored`, path ? `${path}.${key}` : key);
  }
}

const each = (value: unknown, callback: (item: unknown, index: number) => void): void => {
  if (Array.isArray(value)) value.forEach(callback);
};

/** Warns about keys the format does not have (the original ignored them silently), at every level. */
export function warnUnknownKeys(value: unknown, level: 'curriculum' | 'collection' | 'image' | 'lesson', file: string, problems: ProblemList): void {
  unknownKeysAt(value, level, '', file, problems);
  if (level !== 'lesson' || !isObject(value)) return;
  each(value.stages, (stage, i) => unknownKeysAt(stage, 'stage', `stages[${i}]`, file, problems));
  each(value.connections, (connection, i) => unknownKeysAt(connection, 'connection', `connections[${i}]`, file, problems));
  each(value.authors, (author, i) => unknownKeysAt(author, 'author', `authors[${i}]`, file, problems));
  each(value.endpoints, (endpoint, i) => {
    unknownKeysAt(endpoint, 'endpoint', `endpoints[${i}]`, file, problems);
    if (isObject(endpoint)) each(endpoint.presentations, (p, j) => unknownKeysAt(p, 'presentation', `endpoints[${i}].presentations[${j}]`, file, problems));
  });
}
