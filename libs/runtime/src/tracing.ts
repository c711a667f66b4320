import { trace, type Tracer } from '@opentelemetry/api';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import type { AntidoteConfig } from '@antidote/config';

/** The provider once registered; the SDK behind it is loaded by the first `startTracing` with tracing on. */
let provider: Promise<{ forceFlush(): Promise<void> }> | undefined;

/**
 * Turns tracing on for this process as configured (off by default): W3C trace context propagation,
 * async-local context, and the exporter. The first service of a process registers; later ones (several
 * services in one test process) share it. Spans carry the service in their instrumentation scope.
 * The OpenTelemetry SDK is imported here, only when tracing is on: with it off a process never loads it
 * (it costs several MiB of resident memory) and spans stay the API's no-ops.
 */
export async function startTracing(config: Pick<AntidoteConfig, 'tracing'>, service: string): Promise<void> {
  if (config.tracing.exporter === 'none') return;
  provider ??= import('./tracing-sdk.js').then((sdk) => sdk.registerTracing(config.tracing, service));
  await provider;
}

/** Sends what is buffered (the otlp exporter batches); called on shutdown. */
export async function flushTracing(): Promise<void> {
  await (await provider)?.forceFlush();
}

/** The exporter that keeps spans in memory (`tracing.exporter: memory`: tests, debugging); loads the SDK. */
export const memorySpans = async (): Promise<InMemorySpanExporter> => (await import('./tracing-sdk.js')).memorySpanExporter;

/** The tracer of one service: a no-op unless tracing was started. */
export const tracerOf = (service: string): Tracer => trace.getTracer(`antidote-${service}`);
