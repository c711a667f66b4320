import type { z } from 'zod';
import { invalidArgument } from './gateway.error.js';

/** Parses a body, query or path parameter; the first issue becomes a 400 naming the field. */
export function validate<T extends z.ZodType>(schema: T, value: unknown, where: 'body' | 'query' | 'path'): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const keys = issue.code === 'unrecognized_keys' ? (issue as { keys?: string[] }).keys : undefined;
  const field = [...issue.path.map(String), ...(keys ?? [])].join('.') || where;
  const message = issue.code === 'unrecognized_keys' ? `unknown field "${field}"` : `invalid ${field}: ${issue.message}`;
  throw invalidArgument(message, field);
}
