import { Logger } from '@nestjs/common';
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

const logger = new Logger('Requests');

/**
 * A public `/exp` body: fields the schema does not know are ignored, as the original's gateway did
 * (front-ends send extra ones), and logged at debug. Admin bodies stay strict (`validate` of a strict schema).
 */
export function validateExp<T extends z.ZodObject>(schema: T, body: unknown, route: string): z.output<T> {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const unknown = Object.keys(body).filter((key) => !Object.hasOwn(schema.shape, key));
    if (unknown.length > 0) logger.debug(`${route}: ignored unknown body fields ${unknown.map((key) => JSON.stringify(key.slice(0, 64))).join(', ')}`);
  }
  return validate(schema, body, 'body');
}
