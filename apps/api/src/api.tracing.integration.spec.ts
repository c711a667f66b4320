import { LiveLessonStatus } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { memorySpans } from '@antidote/runtime';
import { schedulerService } from '@antidote/scheduler';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { startTestPlatform, type TestPlatform } from '@antidote/testing';
import { SpanKind } from '@opentelemetry/api';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiService } from './api.definition.js';

/**
 * One learner's request as a single trace: the api's HTTP span, its NATS request to the scheduler, the
 * scheduler's handling and its provisioning, and the healthchecker's probes it asks for — all one trace
 * id, each parented on the span before it, collected by the in-memory exporter (`tracing.exporter: memory`).
 */
describe('tracing: one trace from the api through the scheduler to the healthchecker', () => {
  let p: TestPlatform<'healthchecker' | 'scheduler' | 'api', KubeSim>;
  let api = '';
  let memorySpanExporter: InMemorySpanExporter;

  beforeAll(async () => {
    memorySpanExporter = await memorySpans();
    memorySpanExporter.reset();
    p = await startTestPlatform('sqlite', {
      cluster: startKubeSim,
      services: { healthchecker: healthcheckerService, scheduler: schedulerService, api: apiService },
      overrides: { tracing: { exporter: 'memory' }, httpPort: 0, api: { host: '127.0.0.1' } },
    });
    api = p.running('api')[0].url;
  });
  afterAll(() => p?.stop());

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
    (
      await fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    ).json() as Promise<Record<string, string>>;

  it('carries the traceparent of the HTTP request over NATS to every service that works on the lab', async () => {
    const session = await post('/exp/livesession', {});
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const { id } = await post(
      '/exp/livelesson',
      { lessonSlug: 'linux-basics', sessionId: session.ID, lessonStage: 0 },
      { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    );
    await expect.poll(async () => (await p.data.liveLessons.find(id))?.status).toBe(LiveLessonStatus.READY);
    // The create span ends once the operation has finished with READY (after the status is written).
    const finished = () => memorySpanExporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    await expect.poll(() => finished().filter((span) => span.name === 'live lesson create').length).toBe(1);

    const spans = finished();
    const named = (name: string) => spans.filter((span) => span.name === name);
    const http = named('POST /exp/livelesson');
    expect(http).toHaveLength(1);
    expect(http[0]).toMatchObject({ kind: SpanKind.SERVER, instrumentationScope: { name: 'antidote-api' }, attributes: { 'http.response.status_code': 200 } });
    expect(http[0].parentSpanContext?.spanId).toBe('00f067aa0ba902b7');

    const request = named('antidote.livelesson.create.v1 request');
    expect(request.map((span) => span.parentSpanContext?.spanId)).toEqual([http[0].spanContext().spanId]);
    const handled = named('antidote.livelesson.create.v1 handle');
    expect(handled).toHaveLength(1);
    expect(handled[0]).toMatchObject({ kind: SpanKind.SERVER, instrumentationScope: { name: 'antidote-scheduler' } });
    expect(handled[0].parentSpanContext?.spanId).toBe(request[0].spanContext().spanId);

    const create = named('live lesson create');
    expect(create).toHaveLength(1);
    expect(create[0].attributes['antidote.live_lesson.id']).toBe(id);
    expect(create[0].parentSpanContext?.spanId).toBe(handled[0].spanContext().spanId);

    const probes = spans.filter((span) => span.instrumentationScope.name === 'antidote-healthchecker');
    expect(probes.length).toBeGreaterThan(0);
    const probeRequests = new Set(probes.map((span) => span.parentSpanContext?.spanId));
    const requestsFromCreate = spans.filter((span) => span.kind === SpanKind.CLIENT && probeRequests.has(span.spanContext().spanId));
    expect(requestsFromCreate.length).toBeGreaterThan(0);
    const ancestorsOf = (spanId: string | undefined): string[] => {
      const span = spans.find((candidate) => candidate.spanContext().spanId === spanId);
      return span ? [spanId!, ...ancestorsOf(span.parentSpanContext?.spanId)] : [];
    };
    for (const probeRequest of requestsFromCreate) expect(ancestorsOf(probeRequest.spanContext().spanId)).toContain(create[0].spanContext().spanId);
    // Spans describe operations, never payloads: the lab's device password appears in none.
    expect(JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events]))).not.toContain('antidotepassword');
  });

  it('starts a new trace for a request that carries none, and makes no spans for probes of /healthz', async () => {
    const before = memorySpanExporter.getFinishedSpans().length;
    await fetch(`${api}/healthz`);
    await fetch(`${api}/exp/lesson`);
    // Status events of the first test's lab may still arrive: only the api's own HTTP spans count here.
    const added = memorySpanExporter
      .getFinishedSpans()
      .slice(before)
      .filter((span) => span.instrumentationScope.name === 'antidote-api');
    expect(added.map((span) => span.name)).toEqual(['GET /exp/lesson']);
    expect(added[0].parentSpanContext).toBeUndefined();
  });
});
