import { context, propagation, trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { flushTracing, memorySpans, startTracing, tracerOf } from './tracing.js';

/** Which OpenTelemetry SDK packages this process has imported so far. */
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('@opentelemetry/sdk-trace-base', async (original) => {
  loaded.add('sdk-trace-base');
  return original();
});
vi.mock('@opentelemetry/exporter-trace-otlp-http', async (original) => {
  loaded.add('exporter-trace-otlp-http');
  return original();
});

const tracing = (exporter: 'none' | 'memory') => ({ tracing: { exporter, sampleRatio: 1 } });

describe('startTracing', () => {
  // The unit tier shares a process between spec files: leave no global tracer, context manager or propagator behind.
  afterAll(async () => {
    await flushTracing();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('loads no OpenTelemetry SDK while tracing is off (the default)', async () => {
    await startTracing(tracing('none'), 'test');
    tracerOf('test').startSpan('not recorded').end();
    await flushTracing();
    expect([...loaded]).toEqual([]);
  });

  it('loads the SDK (and no OTLP exporter) when tracing is on, and records spans', async () => {
    await startTracing(tracing('memory'), 'test');
    tracerOf('test').startSpan('recorded').end();
    expect([...loaded]).toEqual(['sdk-trace-base']);
    expect((await memorySpans()).getFinishedSpans().map((span) => span.name)).toEqual(['recorded']);
  });
});
