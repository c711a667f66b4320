import { Catch, Logger, type ArgumentsHost, type ExceptionFilter, type RpcExceptionFilter } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { ErrorCodes } from '@antidote/contracts';
import { throwError, type Observable } from 'rxjs';
import { toErrorReply } from '../bus.codec.js';

/** The error reply a bus handler's failure becomes (an RpcException carries its reply already). */
export const errorReplyOf = (exception: unknown): ReturnType<typeof toErrorReply> =>
  toErrorReply(exception instanceof RpcException ? exception.getError() : exception);

/**
 * The one place bus handler failures become replies: domain errors keep their code and message,
 * anything else is logged and answered INTERNAL without internals. Never rethrown to the process.
 * Global filters see HTTP too (a service's ops routes): those go to `http`, Nest's own HTTP filter,
 * so an unknown route is a plain 404 (no reply would ever come from the bus path).
 */
@Catch()
export class BusExceptionFilter implements RpcExceptionFilter {
  private readonly logger = new Logger('Bus');

  constructor(private readonly http?: ExceptionFilter) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    if (host.getType() === 'http' && this.http) return this.http.catch(exception, host) as never;
    const reply = errorReplyOf(exception);
    if (reply.error.code === ErrorCodes.internal) {
      const subject = host.switchToRpc().getContext<{ getSubject?: () => string }>().getSubject?.();
      this.logger.error(
        `handler failed on ${subject ?? 'unknown subject'}: ${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}`,
      );
    }
    return throwError(() => reply.error);
  }
}
