import { z } from 'zod';
import { linearTimeRegExp } from './linear-regex.js';

/**
 * Bounds of a readiness check: a pattern is at most `pattern` characters, runs in linear time (V8's
 * linear-time engine), and runs on at most `input` characters of what the endpoint answered, off the
 * healthchecker's event loop and under a time limit, so no curriculum can make it backtrack or stall.
 */
export const READINESS_LIMITS = { pattern: 256, command: 256, path: 256, input: 8192 } as const;

const compiles = (pattern: string): boolean => {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
};

const pattern = z
  .string({ error: 'is required (a regular expression)' })
  .min(1, 'must not be empty')
  .max(READINESS_LIMITS.pattern, `must be at most ${READINESS_LIMITS.pattern} characters`)
  .refine(compiles, 'must be a valid regular expression')
  .refine(
    (text) => !compiles(text) || linearTimeRegExp(text) !== undefined,
    'must run in linear time: back-references, lookahead/lookbehind and counted repetitions over 16 (such as {32}) can backtrack catastrophically; use + or * instead',
  );
const port = z
  .number({ error: 'must be a port number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(65535, 'must be at most 65535')
  .optional();

const sshCheck = z
  .object({
    type: z.literal('ssh'),
    /** Run over SSH with the image's login; its output must match `match`. */
    command: z
      .string({ error: 'is required (a command)' })
      .min(1, 'must not be empty')
      .max(READINESS_LIMITS.command, `must be at most ${READINESS_LIMITS.command} characters`)
      .regex(/^[^\r\n\0]*$/, 'must be one line'),
    match: pattern,
    /** Default: the endpoint's first ssh presentation, else 22. */
    port,
  })
  .strict();

const httpCheck = z
  .object({
    type: z.literal('http'),
    path: z
      .string({ error: 'is required (a path such as /healthz)' })
      .max(READINESS_LIMITS.path, `must be at most ${READINESS_LIMITS.path} characters`)
      .regex(/^\/[\x21-\x7e]*$/, 'must be a path starting with "/" (printable characters, no spaces)'),
    /** The status that means ready (default 200). */
    status: z
      .number({ error: 'must be an HTTP status' })
      .int('must be a whole number')
      .min(100, 'must be an HTTP status (100-599)')
      .max(599, 'must be an HTTP status (100-599)')
      .optional(),
    /** Default: the endpoint's first http presentation. */
    port,
  })
  .strict();

const tcpCheck = z
  .object({
    type: z.literal('tcp'),
    /** What the endpoint sends first on connecting (its banner) must match. */
    match: pattern,
    /** Default: the endpoint's first port. */
    port,
  })
  .strict();

/**
 * How to tell an endpoint is ready, not only reachable (an image's optional `readiness`): a command over
 * SSH whose output matches, an HTTP path answering a status, or a TCP banner that matches.
 */
export const readinessCheckSchema = z.discriminatedUnion('type', [sshCheck, httpCheck, tcpCheck], { error: 'must be a check with type ssh, http or tcp' });
export type ReadinessCheck = z.infer<typeof readinessCheckSchema>;

/** What the readiness check of an endpoint saw: `ready`, or why not (yet). */
export const readinessResultSchema = z
  .object({
    /** A short description of the check, e.g. `ssh "show version" =~ /Model/`. */
    check: z.string().max(1024),
    ready: z.boolean(),
    /** Why not ready (the last answer, shortened), or what matched. */
    detail: z.string().max(1024),
  })
  .strict();
export type ReadinessResult = z.infer<typeof readinessResultSchema>;

const DEFAULT_SSH_PORT = 22;

/**
 * The port a check asks on: its own, else the endpoint's first presentation of its kind (ssh: else 22;
 * tcp: the endpoint's first port). Undefined: nothing to ask (an http check on an endpoint without an
 * http presentation, a tcp check on one without ports).
 */
export function readinessPort(
  check: ReadinessCheck,
  endpoint: { ports: readonly number[]; presentations: readonly { port: number; type: string }[] },
): number | undefined {
  if (check.port !== undefined) return check.port;
  if (check.type === 'tcp') return endpoint.ports[0];
  const presentation = endpoint.presentations.find((p) => p.type === check.type)?.port;
  return check.type === 'ssh' ? (presentation ?? DEFAULT_SSH_PORT) : presentation;
}
