import { z } from 'zod';
import { liveLessonIdSchema } from './ids.js';
import { readinessCheckSchema, readinessResultSchema } from './readiness.js';

export const presentationTypeSchema = z.enum(['ssh', 'http']);
export type PresentationType = z.infer<typeof presentationTypeSchema>;
export const probeKindSchema = z.enum(['ssh', 'http', 'tcp']);
export type ProbeKind = z.infer<typeof probeKindSchema>;

const portSchema = z.number().int().min(1).max(65535);
const hostSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.:-]+$/, 'must be an IP address or host name');

/** One endpoint to probe, as the healthchecker builds it from a live lesson's row (never taken from the bus). */
export const healthTargetSchema = z
  .object({
    name: z.string().min(1).max(253),
    host: hostSchema,
    ports: z.array(portSchema).max(64).default([]),
    presentations: z
      .array(z.object({ name: z.string().max(253), port: portSchema, type: presentationTypeSchema }).strict())
      .max(64)
      .default([]),
    sshUser: z.string().max(256).optional(),
    sshPassword: z.string().max(256).optional(),
    /** The image's readiness check (absent: reachable means ready, as before). */
    readiness: readinessCheckSchema.optional(),
  })
  .strict();
export type HealthTarget = z.infer<typeof healthTargetSchema>;

/**
 * What a probe saw. `credentials-rejected` means the SSH server answered and refused the login: the
 * endpoint is up (reachable), the configured credentials are wrong.
 */
export const probeVerdictSchema = z.enum(['reachable', 'credentials-rejected', 'refused', 'timeout', 'unreachable', 'bad-response']);
export type ProbeVerdict = z.infer<typeof probeVerdictSchema>;

export const probeResultSchema = z
  .object({
    /** Presentation name, or `port-<n>` for the first-port probe of an endpoint without presentations. */
    target: z.string(),
    kind: probeKindSchema,
    port: z.number().int(),
    verdict: probeVerdictSchema,
    reachable: z.boolean(),
    latencyMs: z.number(),
    error: z.string().optional(),
    httpStatus: z.number().int().optional(),
  })
  .strict();
export type ProbeResult = z.infer<typeof probeResultSchema>;

export const endpointHealthSchema = z
  .object({
    name: z.string(),
    host: z.string(),
    /** Every probe of the endpoint reachable. */
    reachable: z.boolean(),
    latencyMs: z.number(),
    probes: z.array(probeResultSchema),
    error: z.string().optional(),
    /**
     * Only for an endpoint whose image declares a readiness check (so replies about other endpoints are
     * what they were): what the check saw. Such an endpoint is up when reachable and ready.
     */
    readiness: readinessResultSchema.optional(),
  })
  .strict();
export type EndpointHealth = z.infer<typeof endpointHealthSchema>;

/** Up: reachable, and ready where the endpoint has a readiness check. */
export const endpointUp = (endpoint: Pick<EndpointHealth, 'reachable' | 'readiness'>): boolean => endpoint.reachable && endpoint.readiness?.ready !== false;

/**
 * Probe a live lesson's endpoints once. Only a live lesson id: the addresses come from its row in the
 * database, so no message can point the healthchecker at a host of its choosing.
 */
export const healthCheckRequestSchema = z.object({ liveLessonId: liveLessonIdSchema, timeoutMs: z.number().int().min(1).max(60_000).optional() }).strict();
export type HealthCheckRequest = z.infer<typeof healthCheckRequestSchema>;

export const healthCheckReplySchema = z.object({ endpoints: z.array(endpointHealthSchema) }).strict();
export type HealthCheckReply = z.infer<typeof healthCheckReplySchema>;

/** Probe a live lesson's endpoints until all are up (reachable, and ready where a readiness check is declared) or the deadline passes. */
export const waitReachableRequestSchema = z
  .object({
    liveLessonId: liveLessonIdSchema,
    deadlineMs: z.number().int().min(1).max(3_600_000).optional(),
    intervalMs: z.number().int().min(1).max(60_000).optional(),
  })
  .strict();
export type WaitReachableRequest = z.infer<typeof waitReachableRequestSchema>;

export const waitReachableReplySchema = z
  .object({
    /** Every endpoint up: reachable, and ready where its image declares a readiness check. */
    reachable: z.boolean(),
    healthy: z.number().int(),
    total: z.number().int(),
    elapsedMs: z.number(),
    /** The last result for every endpoint. */
    endpoints: z.array(endpointHealthSchema),
  })
  .strict();
export type WaitReachableReply = z.infer<typeof waitReachableReplySchema>;

/**
 * Published as each endpoint of a waited-on live lesson comes up. Bounded so a malformed event cannot
 * reach a learner's stream: an endpoint name as in a target, counts with healthy ≤ total, an ISO time.
 */
export const healthProgressEventSchema = z
  .object({
    liveLessonId: liveLessonIdSchema,
    endpoint: healthTargetSchema.shape.name,
    healthy: z.number().int().min(0).max(10_000),
    total: z.number().int().min(0).max(10_000),
    at: z.iso.datetime({ offset: true }),
  })
  .strict()
  .refine((event) => event.healthy <= event.total, { message: 'healthy must not exceed total', path: ['healthy'] });
export type HealthProgressEvent = z.infer<typeof healthProgressEventSchema>;
