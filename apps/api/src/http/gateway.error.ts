/** gRPC status codes the original's grpc-gateway put in `code`, with the HTTP status we answer with. */
export const GrpcCode = {
  InvalidArgument: { code: 3, http: 400 },
  NotFound: { code: 5, http: 404 },
  AlreadyExists: { code: 6, http: 409 },
  PermissionDenied: { code: 7, http: 403 },
  ResourceExhausted: { code: 8, http: 429 },
  FailedPrecondition: { code: 9, http: 409 },
  Internal: { code: 13, http: 500 },
  Unavailable: { code: 14, http: 503 },
  Unauthenticated: { code: 16, http: 401 },
} as const;
export interface GrpcStatus {
  code: number;
  http: number;
}

/** An error the API answers with, in the gateway shape `{error, code, message, details}`. */
export class GatewayError extends Error {
  constructor(
    readonly status: GrpcStatus,
    message: string,
    /** The request field at fault, when there is one. */
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'GatewayError';
  }

  body(): { error: string; code: number; message: string; details: unknown[] } {
    return { error: this.message, code: this.status.code, message: this.message, details: this.field ? [{ field: this.field }] : [] };
  }
}

export const invalidArgument = (message: string, field?: string): GatewayError => new GatewayError(GrpcCode.InvalidArgument, message, field);
export const notFound = (message: string): GatewayError => new GatewayError(GrpcCode.NotFound, message);
export const failedPrecondition = (message: string): GatewayError => new GatewayError(GrpcCode.FailedPrecondition, message);
export const exhausted = (message: string, retryAfterSeconds?: number): GatewayError =>
  new GatewayError(GrpcCode.ResourceExhausted, message, undefined, retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {});
export const unavailable = (message: string): GatewayError => new GatewayError(GrpcCode.Unavailable, message);
export const internal = (message: string): GatewayError => new GatewayError(GrpcCode.Internal, message);
