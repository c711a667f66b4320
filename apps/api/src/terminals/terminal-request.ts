import { z } from 'zod';
import { TerminalCloseCode, TerminalRefusal } from './terminal.errors.js';

export const TERMINALS_PATH = '/terminals';

const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
const terminalQuerySchema = z
  .object({
    liveLessonId: id,
    sessionId: id,
    endpoint: z
      .string()
      .min(1)
      .max(63)
      .regex(/^[A-Za-z0-9-]+$/),
    /** Which SSH presentation of the endpoint (its first when absent). */
    presentation: z
      .string()
      .min(1)
      .max(63)
      .regex(/^[A-Za-z0-9_-]+$/)
      .optional(),
  })
  .strict();
export type TerminalRequest = z.infer<typeof terminalQuerySchema>;

/** The terminal's query: which lab, whose session, which endpoint (and presentation). Anything else is refused. */
export function parseTerminalRequest(url: string): TerminalRequest {
  const query = Object.fromEntries(new URL(url, 'http://terminal.invalid').searchParams);
  const parsed = terminalQuerySchema.safeParse(query);
  if (!parsed.success)
    throw new TerminalRefusal(
      TerminalCloseCode.badRequest,
      `a terminal needs liveLessonId, sessionId and endpoint (${parsed.error.issues.map((issue) => issue.path.join('.') || issue.message).join(', ')})`,
    );
  return parsed.data;
}

/**
 * A browser always sends Origin with a WebSocket: it must be the api's own (`own`, as the request reached
 * it: Host, or a trusted proxy's X-Forwarded-Host and -Proto) or one of `allowed`. No Origin (not a
 * browser) is refused too: a page on another site can never drive a terminal.
 */
export function originAllowed(origin: string | undefined, own: string | undefined, allowed: readonly string[]): boolean {
  if (!origin || !own) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === own) return true;
  return allowed.some((entry) => entry !== '*' && new URL(entry).origin === parsed.origin);
}
