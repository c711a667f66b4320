import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { AntidoteConfig } from '@antidote/config';

/** Spans of every service in this process when `tracing.exporter` is `memory` (tests, debugging). */
export const memorySpanExporter = new InMemorySpanExporter();

let provider: BasicTracerProvider | undefined;

function spanProcessor(tracing: AntidoteConfig['tracing']): SpanProcessor {
  switch (tracing.exporter) {
    case 'memory':
      return new SimpleSpanProcessor(memorySpanExporter);
    case 'console':
      return new SimpleSpanProcessor(new ConsoleSpanExporter());
    case 'otlp':
      return new BatchSpanProcessor(new OTLPTraceExporter(tracing.otlpUrl ? { url: tracing.otlpUrl } : {}));
    case 'none':
      throw new Error('no span processor when tracing is off');
  }
}

/**
 * Turns tracing on for this process as configured (off by default): W3C trace context propagation,
 * async-local context, and the exporter. The first service of a process registers; later ones (several
 * services in one test process) share it. Spans carry the service in their instrumentation scope.
 */
export function startTracing(config: Pick<AntidoteConfig, 'tracing'>, service: string): void {
  if (config.tracing.exporter === 'none' || provider) return;
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': `antidote-${service}` }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.tracing.sampleRatio) }),
    spanProcessors: [spanProcessor(config.tracing)],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
}

/** Sends what is buffered (the otlp exporter batches); called on shutdown. */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}

/** The tracer of one service: a no-op unless tracing was started. */
export const tracerOf = (service: string): Tracer => trace.getTracer(`antidote-${service}`);
