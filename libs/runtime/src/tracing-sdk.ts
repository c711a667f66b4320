import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
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

// The OpenTelemetry SDK: imported by `startTracing` only when tracing is on (tracing.ts), so that a
// process with tracing off (the default) never loads it.

type Tracing = AntidoteConfig['tracing'];

/** Spans of every service in this process when `tracing.exporter` is `memory` (tests, debugging). */
export const memorySpanExporter = new InMemorySpanExporter();

async function spanProcessor(tracing: Tracing): Promise<SpanProcessor> {
  switch (tracing.exporter) {
    case 'memory':
      return new SimpleSpanProcessor(memorySpanExporter);
    case 'console':
      return new SimpleSpanProcessor(new ConsoleSpanExporter());
    case 'otlp': {
      // Its OTLP transformer brings metrics and logs SDKs along: loaded only for this exporter.
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
      return new BatchSpanProcessor(new OTLPTraceExporter(tracing.otlpUrl ? { url: tracing.otlpUrl } : {}));
    }
    case 'none':
      throw new Error('no span processor when tracing is off');
  }
}

/** Registers the global tracer provider, async-local context and W3C propagation; returns the provider. */
export async function registerTracing(tracing: Tracing, service: string): Promise<BasicTracerProvider> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': `antidote-${service}` }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(tracing.sampleRatio) }),
    spanProcessors: [await spanProcessor(tracing)],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return provider;
}
