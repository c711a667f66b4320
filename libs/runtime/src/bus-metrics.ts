import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { errorReplyOf, type BusClient } from '@antidote/messaging';
import { tap, type Observable } from 'rxjs';
import type { MetricsService } from './metrics.service.js';

/** Sub-millisecond replies to timeouts of tens of seconds. */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** NATS request latency and errors of the requests this service makes: `antidote_nats_request_duration_seconds{subject,outcome}`. */
export function observeBusRequests(bus: BusClient, metrics: MetricsService): void {
  const sent = metrics.histogram({
    name: 'antidote_nats_request_duration_seconds',
    help: 'NATS requests this service made, by subject and outcome (ok or the error code)',
    labelNames: ['subject', 'outcome'],
    buckets: BUCKETS,
  });
  bus.observe((event) => sent.observe({ subject: event.subject, outcome: event.outcome }, event.seconds));
}

/**
 * NATS request latency and errors of the requests this service handles:
 * `antidote_nats_handled_duration_seconds{subject,outcome}`, the outcome being `ok` or the code of the error reply.
 */
export class BusHandledMetricsInterceptor implements NestInterceptor {
  private readonly handled;

  constructor(metrics: MetricsService) {
    this.handled = metrics.histogram({
      name: 'antidote_nats_handled_duration_seconds',
      help: 'NATS requests this service handled, by subject and outcome (ok or the error code)',
      labelNames: ['subject', 'outcome'],
      buckets: BUCKETS,
    });
  }

  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() !== 'rpc') return next.handle();
    const subject = execution.switchToRpc().getContext<NatsContext>().getSubject();
    const stop = this.handled.startTimer({ subject });
    // next.handle() now, not on subscription: the handler must run inside the trace context set around this call.
    return next.handle().pipe(
      tap({
        error: (error: unknown) => stop({ outcome: errorReplyOf(error).error.code }),
        complete: () => stop({ outcome: 'ok' }),
      }),
    );
  }
}
