import { HttpException, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { incomingContext } from '@antidote/messaging';
import { Observable } from 'rxjs';
import { tracerOf } from './tracing.js';

interface HttpRequestLike {
  method: string;
  originalUrl?: string;
  url: string;
  route?: { path?: string };
  headers: Record<string, string | string[] | undefined>;
}

/** Probes and scrapes, every few seconds: not worth a trace. */
const opsRoutes = new Set(['/healthz', '/readyz', '/metrics']);

const headerGetter = {
  get: (carrier: HttpRequestLike['headers'], key: string) => carrier[key],
  keys: (carrier: HttpRequestLike['headers']) => Object.keys(carrier),
};

/**
 * One server span per HTTP request and per NATS request or event a service handles, child of the trace
 * context the caller sent (`traceparent` header), active while the handler runs — so what the handler
 * sends on NATS (through BusClient) continues the same trace.
 */
export class TracingInterceptor implements NestInterceptor {
  constructor(private readonly service: string) {}

  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    const started = this.start(execution);
    if (!started) return next.handle();
    const { span, parent } = started;
    return new Observable((subscriber) => {
      const subscription = context
        .with(trace.setSpan(parent, span), () => next.handle())
        .subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => {
            this.fail(span, error, execution);
            span.end();
            subscriber.error(error);
          },
          complete: () => {
            this.succeed(span, execution);
            span.end();
            subscriber.complete();
          },
        });
      return () => subscription.unsubscribe();
    });
  }

  private start(execution: ExecutionContext): { span: Span; parent: Context } | undefined {
    const tracer = tracerOf(this.service);
    if (execution.getType() === 'rpc') {
      const nats = execution.switchToRpc().getContext<NatsContext>();
      const parent = incomingContext(nats.getHeaders() as Parameters<typeof incomingContext>[0]);
      const subject = nats.getSubject();
      const span = tracer.startSpan(
        `${subject} handle`,
        { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } },
        parent,
      );
      return { span, parent };
    }
    if (execution.getType() === 'http') {
      const request = execution.switchToHttp().getRequest<HttpRequestLike>();
      const parent = propagation.extract(context.active(), request.headers, headerGetter);
      const route = request.route?.path ?? (request.originalUrl ?? request.url).split('?')[0];
      if (opsRoutes.has(route)) return undefined;
      const span = tracer.startSpan(
        `${request.method} ${route}`,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'http.route': route } },
        parent,
      );
      return { span, parent };
    }
    return undefined;
  }

  private succeed(span: Span, execution: ExecutionContext): void {
    if (execution.getType() === 'http')
      span.setAttribute('http.response.status_code', execution.switchToHttp().getResponse<{ statusCode: number }>().statusCode);
  }

  private fail(span: Span, error: unknown, execution: ExecutionContext): void {
    const status = error instanceof HttpException ? error.getStatus() : 500;
    if (execution.getType() === 'http') span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
}
