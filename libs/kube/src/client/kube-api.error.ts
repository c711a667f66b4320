/** The Kubernetes verbs our calls use (metrics label them). */
export type KubeVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

/** What a call was about, for errors and the observer hook. */
export interface KubeCallTarget {
  verb: KubeVerb;
  /** Resource plural (`pods`, `network-attachment-definitions`, `pods/log` …). */
  resource: string;
  namespace?: string;
  name?: string;
}

/** `code` for a call that got no HTTP response (refused, reset, timed out). */
export const NO_RESPONSE = 0;

/**
 * A failed Kubernetes API call: the HTTP status and the `Status` object's reason and message
 * (`NotFound`, `AlreadyExists`, `Conflict`, `Expired`, `TooManyRequests` …), or code 0 with reason
 * `Timeout`/`ConnectionError` when no response came.
 */
export class KubeApiError extends Error {
  override readonly name = 'KubeApiError';
  readonly code: number;
  readonly reason: string;
  readonly verb: KubeVerb;
  readonly resource: string;
  readonly namespace?: string;
  readonly objectName?: string;
  /** Seconds from a `Retry-After` header (429, some 503). */
  readonly retryAfterSeconds?: number;

  constructor(target: KubeCallTarget, details: { code: number; reason: string; message: string; retryAfterSeconds?: number; cause?: unknown }) {
    const where = [target.namespace, target.name].filter(Boolean).join('/');
    super(`${target.verb} ${target.resource}${where ? ` ${where}` : ''}: ${details.code || 'no response'} ${details.reason}: ${details.message}`, {
      cause: details.cause,
    });
    this.code = details.code;
    this.reason = details.reason;
    this.verb = target.verb;
    this.resource = target.resource;
    if (target.namespace) this.namespace = target.namespace;
    if (target.name) this.objectName = target.name;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
  }

  /** The `Status.message` part (without the verb/resource prefix). */
  get statusMessage(): string {
    return this.message.slice(this.message.indexOf(`${this.reason}: `) + this.reason.length + 2);
  }
}

export const isNotFound = (error: unknown): boolean => error instanceof KubeApiError && error.code === 404;
export const isAlreadyExists = (error: unknown): boolean => error instanceof KubeApiError && error.code === 409 && error.reason === 'AlreadyExists';
export const isConflict = (error: unknown): boolean => error instanceof KubeApiError && error.code === 409;
export const isGone = (error: unknown): boolean => error instanceof KubeApiError && error.code === 410;

interface StatusBody {
  reason?: unknown;
  message?: unknown;
}

function parseStatus(body: unknown): StatusBody {
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as StatusBody;
    } catch {
      return { message: body.slice(0, 500) };
    }
  }
  return body && typeof body === 'object' ? body : {};
}

const REASON_BY_CODE: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Expired',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

function retryAfter(headers: Record<string, string> | undefined): number | undefined {
  const value = headers?.['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

interface HttpLikeError {
  code?: unknown;
  statusCode?: unknown;
  body?: unknown;
  headers?: Record<string, string>;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** Turns whatever client-node threw (ApiException, fetch TypeError, DOMException, watch Error) into a `KubeApiError`. */
export function toKubeApiError(error: unknown, target: KubeCallTarget): KubeApiError {
  if (error instanceof KubeApiError) return error;
  const e = (error ?? {}) as HttpLikeError;
  const status = typeof e.code === 'number' && e.code >= 100 ? e.code : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  if (status !== undefined) {
    const body = parseStatus(e.body);
    return new KubeApiError(target, {
      code: status,
      reason: typeof body.reason === 'string' && body.reason ? body.reason : (REASON_BY_CODE[status] ?? 'Unknown'),
      message: typeof body.message === 'string' ? body.message : typeof e.message === 'string' ? e.message : '',
      retryAfterSeconds: retryAfter(e.headers),
      cause: error,
    });
  }
  if (e.name === 'TimeoutError') return new KubeApiError(target, { code: NO_RESPONSE, reason: 'Timeout', message: 'no response in time', cause: error });
  if (e.name === 'AbortError') return new KubeApiError(target, { code: NO_RESPONSE, reason: 'Aborted', message: 'the call was cancelled', cause: error });
  const cause = e.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = [cause?.code, cause?.message ?? e.message].filter((part) => typeof part === 'string' && part).join(' ');
  return new KubeApiError(target, { code: NO_RESPONSE, reason: 'ConnectionError', message: detail || String(error), cause: error });
}
