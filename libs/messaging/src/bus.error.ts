import { ErrorCodes, type ErrorReplyBody } from '@antidote/contracts';

/** A request over the bus failed: the other side replied with an error, nobody answered, or it timed out. */
export class BusRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly subject: string,
    readonly issues?: ErrorReplyBody['error']['issues'],
  ) {
    super(message);
    this.name = 'BusRequestError';
  }

  get isUnavailable(): boolean {
    return this.code === ErrorCodes.unavailable || this.code === ErrorCodes.timeout;
  }
}

/** A payload that does not match its subject's contract (raised before sending, or when receiving). */
export class ContractViolationError extends Error {
  readonly code = ErrorCodes.invalidPayload;

  constructor(
    readonly subject: string,
    readonly issues: { path: string; message: string }[],
  ) {
    super(`Invalid payload for ${subject}: ${issues.map((issue) => `${issue.path || '(root)'}: ${issue.message}`).join('; ')}`);
    this.name = 'ContractViolationError';
  }
}

/**
 * nats-server refused a client's credentials. The message names the server (without any credentials
 * in its URL), the client and how it authenticated, never the password or token.
 */
export class NatsAuthenticationError extends Error {
  readonly code = 'NATS_AUTHENTICATION';

  constructor(servers: string[], client: string, method: string, cause: unknown) {
    const shown = servers.map((server) => server.replace(/\/\/[^@/]*@/, '//'));
    super(`NATS at ${shown.join(',')} refused the connection of ${client} (${method}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'NatsAuthenticationError';
  }
}
