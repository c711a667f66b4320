import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions } from '@nestjs/microservices';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { parseConfig } from '@antidote/config';
import {
  EventSubjects,
  inboxPrefixOf,
  QueueGroups,
  RequestSubjects,
  type CreateLiveLessonRequest,
  type LiveLessonStatusChangedEvent,
  type SchedulerReply,
} from '@antidote/contracts';
import { testNats } from '@antidote/testing';
import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BusClient,
  BusExceptionFilter,
  BusRequestError,
  busMicroserviceOptions,
  ContractViolationError,
  OnRequest,
  RequestPayload,
  type BusRequestEvent,
} from './index.js';

const received: CreateLiveLessonRequest[] = [];

@Controller()
class EchoController {
  @OnRequest(RequestSubjects.liveLessonCreate, QueueGroups.scheduler)
  create(@RequestPayload(RequestSubjects.liveLessonCreate) request: CreateLiveLessonRequest): SchedulerReply {
    received.push(request);
    if (request.liveLessonId === 'explode') throw new Error('secret internals');
    if (request.liveLessonId === 'busy') throw Object.assign(new Error('LiveLesson is currently busy'), { code: 'BUSY' });
    return { accepted: true };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('bus over a real nats-server', () => {
  let nats: Awaited<ReturnType<typeof testNats>>;
  let app: INestApplication;
  let raw: NatsConnection;
  let bus: BusClient;
  /** The scheduler's own login: the only one allowed to publish status events. */
  let schedulerRaw: NatsConnection;
  let schedulerBus: BusClient;

  beforeAll(async () => {
    nats = await testNats();
    const { config } = parseConfig({ instanceId: 'test', curriculumDir: '/c', ...nats.loginAs('scheduler') });
    app = await NestFactory.create(EchoModule, { logger: false });
    app.useGlobalFilters(new BusExceptionFilter());
    app.connectMicroservice<MicroserviceOptions>(busMicroserviceOptions(config, 'scheduler'), { inheritAppConfig: true });
    await app.startAllMicroservices();
    await app.init();
    const login = (identity: 'api' | 'scheduler') =>
      connect({ servers: nats.url, user: nats.credentials[identity].user, pass: nats.credentials[identity].password, inboxPrefix: inboxPrefixOf(identity) });
    raw = await login('api');
    bus = new BusClient(raw, { requestTimeoutMs: 30_000 });
    schedulerRaw = await login('scheduler');
    schedulerBus = new BusClient(schedulerRaw, { requestTimeoutMs: 30_000 });
  });

  afterAll(async () => {
    await raw?.close();
    await schedulerRaw?.close();
    await app?.close();
    await nats?.stop();
  });

  it('delivers a valid request and returns the typed reply', async () => {
    await expect(bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: 'abc123' })).resolves.toEqual({ accepted: true });
    expect(received).toContainEqual({ liveLessonId: 'abc123' });
  });

  it('refuses to send a payload that breaks the contract', async () => {
    await expect(bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: 'NOT VALID' })).rejects.toBeInstanceOf(ContractViolationError);
  });

  it('answers garbage and wrong types with INVALID_PAYLOAD naming the field', async () => {
    const garbage = await raw.request(RequestSubjects.liveLessonCreate, '{not json', { timeout: 30_000 });
    expect(garbage.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD' } });
    const wrongType = await raw.request(RequestSubjects.liveLessonCreate, JSON.stringify({ liveLessonId: 42 }), { timeout: 30_000 });
    expect(wrongType.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD', issues: [{ path: 'liveLessonId' }] } });
    const extra = await raw.request(RequestSubjects.liveLessonCreate, JSON.stringify({ liveLessonId: 'a', admin: true }), { timeout: 30_000 });
    expect(extra.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD' } });
  });

  it('keeps domain error codes and hides internal errors', async () => {
    await expect(bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: 'busy' })).rejects.toMatchObject({
      code: 'BUSY',
      message: 'LiveLesson is currently busy',
    });
    const failure = await bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: 'explode' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BusRequestError);
    expect(failure).toMatchObject({ code: 'INTERNAL' });
    expect((failure as Error).message).not.toContain('secret');
    // The service is still up after all of that.
    await expect(bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: 'after' })).resolves.toEqual({ accepted: true });
  });

  it('reports UNAVAILABLE when no service answers a subject', async () => {
    await expect(bus.request(RequestSubjects.liveLessonKeepAlive, { liveLessonId: 'x' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('tells its observers (metrics) the subject, outcome and duration of every request', async () => {
    const seen: BusRequestEvent[] = [];
    bus.observe((event) => seen.push(event));
    bus.observe(() => {
      throw new Error('a broken observer');
    });
    await bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: 'observed' });
    await bus.request(RequestSubjects.liveLessonCreate, { liveLessonId: 'busy' }).catch(() => undefined);
    await bus.request(RequestSubjects.liveLessonKeepAlive, { liveLessonId: 'x' }).catch(() => undefined);
    expect(seen.map(({ subject, outcome }) => [subject, outcome])).toEqual([
      [RequestSubjects.liveLessonCreate, 'ok'],
      [RequestSubjects.liveLessonCreate, 'BUSY'],
      [RequestSubjects.liveLessonKeepAlive, 'UNAVAILABLE'],
    ]);
    expect(seen.every((event) => event.seconds >= 0 && event.seconds < 10)).toBe(true);
  });

  it('publishes events to subscribers and drops invalid ones', async () => {
    const events: LiveLessonStatusChangedEvent[] = [];
    const subscription = await bus.subscribe(EventSubjects.liveLessonStatusChanged, (event) => {
      events.push(event);
    });
    const event: LiveLessonStatusChangedEvent = {
      liveLessonId: 'abc',
      sessionId: 's',
      lessonSlug: 'l',
      status: 'BOOTING',
      error: false,
      stage: 0,
      healthyTests: 0,
      totalTests: 1,
      phaseTimes: {},
      at: new Date().toISOString(),
    };
    schedulerRaw.publish(EventSubjects.liveLessonStatusChanged, '{"garbage": true}');
    schedulerBus.publish(EventSubjects.liveLessonStatusChanged, event);
    // One publisher's messages arrive in order: once the valid event is here, the garbage was handled.
    await expect.poll(() => events.length).toBe(1);
    expect(events).toEqual([event]);
    subscription.unsubscribe();
  });
});
