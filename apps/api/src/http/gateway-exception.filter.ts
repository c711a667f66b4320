import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { DataErrorCodes } from '@antidote/contracts';
import { DataError, isDatabaseUnavailable } from '@antidote/data';
import { GatewayError, GrpcCode, internal, invalidArgument, notFound } from './gateway.error.js';

/** Body-parser and framework errors: malformed JSON, a body too large, an unknown route. */
function fromHttpException(status: number, message: string): GatewayError {
  if (status === 404) return notFound(message);
  if (status === 413) return new GatewayError({ code: 3, http: 413 }, 'request body too large');
  if (status === 405) return new GatewayError({ code: 12, http: 405 }, message);
  if (status >= 400 && status < 500) return invalidArgument(message);
  return internal('Internal error');
}

/** The one place HTTP errors are shaped: the original gateway's `{error, code, message}` with a proper status. */
@Catch()
export class GatewayExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const error = this.translate(exception);
    if (error.status === GrpcCode.Internal) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    if (response.headersSent) {
      response.end();
      return;
    }
    response.status(error.status.http).set(error.headers).json(error.body());
  }

  private translate(exception: unknown): GatewayError {
    if (exception instanceof GatewayError) return exception;
    // The database away (restarting): retryable, never a 500.
    if (isDatabaseUnavailable(exception))
      return new GatewayError(GrpcCode.Unavailable, 'The database is not available right now; please try again shortly', undefined, { 'Retry-After': '2' });
    if (exception instanceof DataError)
      return exception.code === DataErrorCodes.notFound ? notFound(exception.message) : new GatewayError(GrpcCode.AlreadyExists, exception.message);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (exception.name === 'PayloadTooLargeException' || status === 413) return fromHttpException(413, '');
      const body = exception.getResponse();
      const message = typeof body === 'object' && body && 'message' in body ? String(body.message) : exception.message;
      return fromHttpException(status, status === 400 ? `malformed request: ${message}` : message);
    }
    const parserError = exception as { status?: number; type?: string; message?: string };
    if (typeof parserError?.status === 'number') {
      if (parserError.type === 'entity.too.large') return fromHttpException(413, '');
      return fromHttpException(parserError.status, `malformed request body: ${parserError.message ?? ''}`);
    }
    return internal('Internal error');
  }
}
