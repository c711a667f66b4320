import { ErrorCodes, type ErrorReplyBody } from '@antidote/contracts';
import type { z } from 'zod';
import { ContractViolationError } from './bus.error.js';

const decoder = new TextDecoder();

export type Decoded = { ok: true; value: unknown } | { ok: false; problem: string };

/** Bodies are plain JSON; an empty body is `{}` (a request with no fields). */
export function decodeJson(data: Uint8Array): Decoded {
  if (data.length === 0) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(decoder.decode(data)) as unknown };
  } catch (error) {
    return { ok: false, problem: `body is not valid JSON: ${(error as Error).message}` };
  }
}

export function isErrorReply(value: unknown): value is ErrorReplyBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = value.error;
  return typeof error === 'object' && error !== null && 'code' in error && 'message' in error;
}

export function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** Validates `value` against a subject's schema, or throws a ContractViolationError listing every issue. */
export function parseContract<T extends z.ZodType>(schema: T, subject: string, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ContractViolationError(subject, issuesOf(result.error));
  return result.data;
}

/** Any thrown value as the error-reply body a caller receives (never a stack trace). */
export function toErrorReply(error: unknown): ErrorReplyBody {
  if (error instanceof ContractViolationError) {
    return { error: { code: error.code, message: error.message, issues: error.issues } };
  }
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    const { code, message, issues } = error as { code: string; message?: unknown; issues?: unknown };
    const body: ErrorReplyBody['error'] = { code, message: typeof message === 'string' ? message : code };
    if (Array.isArray(issues)) body.issues = issues as NonNullable<ErrorReplyBody['error']['issues']>;
    return { error: body };
  }
  return { error: { code: ErrorCodes.internal, message: 'Internal error' } };
}
