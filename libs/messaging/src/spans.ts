import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

export interface SpanOptions {
  /** Instrumentation scope: the service or library making the span. */
  tracer: string;
  kind?: SpanKind;
  attributes?: Attributes;
  parent?: Context;
}

/**
 * Runs `fn` (sync or async) inside a new span, active while it runs, ended when it returns or settles and
 * marked failed when it throws. A no-op span unless an OpenTelemetry SDK is registered (tracing on).
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: () => T): T {
  const parent = options.parent ?? context.active();
  const span = trace.getTracer(options.tracer).startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent);
  let result: T;
  try {
    result = context.with(trace.setSpan(parent, span), fn);
  } catch (error) {
    failed(span, error);
    span.end();
    throw error;
  }
  if (!(result instanceof Promise)) {
    span.end();
    return result;
  }
  return result.then(
    (value: unknown) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      failed(span, error);
      span.end();
      throw error;
    },
  ) as T;
}

const busKinds = { request: SpanKind.CLIENT, publish: SpanKind.PRODUCER, receive: SpanKind.CONSUMER } as const;

/** A span for one NATS operation on `subject`, so the headers sent inside carry it as the receiver's parent. */
export const inBusSpan = <T>(operation: keyof typeof busKinds, subject: string, fn: () => T, parent?: Context): T =>
  inSpan(
    `${subject} ${operation}`,
    { tracer: 'antidote-messaging', kind: busKinds[operation], parent, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } },
    fn,
  );
