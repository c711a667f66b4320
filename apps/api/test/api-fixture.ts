import type { Server } from 'node:http';
import { EventSubjects, RequestSubjects, type LiveLessonStatusChangedEvent } from '@antidote/contracts';
import { createDataSource, DataManager } from '@antidote/data';
import { startService, type RunningService } from '@antidote/runtime';
import { SAMPLE_CURRICULUM, TEST_CURRICULUM_LIMITS, testDatabaseUrl, testNats, type DatabaseKind, type TestNats } from '@antidote/testing';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { apiService } from '../src/api.definition.js';

export { SAMPLE_CURRICULUM } from '@antidote/testing';

export interface ApiFixture {
  url: string;
  data: DataManager;
  nats: NatsConnection;
  /** The nats-server (its `restart()` keeps the port: every client reconnects). */
  natsServer: TestNats;
  /** Requests the stand-in scheduler received, by subject. */
  received: Record<string, unknown[]>;
  publishStatus(event: Partial<LiveLessonStatusChangedEvent> & { liveLessonId: string; status: LiveLessonStatusChangedEvent['status'] }): void;
  /** Publishes `payload` as the healthchecker does (its own login, the only one allowed): raw text as is, anything else as JSON. */
  publishAsHealthchecker(subject: string, payload: unknown): Promise<void>;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: unknown; headers: Headers }>;
  /** The api's HTTP server (to see when it has a request or a connection). */
  server: Server;
  /** The stand-in scheduler keeps its replies until the returned function is called: requests wait on it, in flight. */
  holdScheduler(): () => void;
  stop(): Promise<void>;
}

/**
 * The real api on a real nats-server and database, with the sample curriculum imported at start, and a
 * real NATS subscriber standing in for the scheduler (it replies accepted and records what it got).
 */
export async function startApi(kind: DatabaseKind | { databaseUrl: string }, overrides: Record<string, unknown> = {}): Promise<ApiFixture> {
  const server = await testNats();
  const databaseUrl = typeof kind === 'string' ? (await testDatabaseUrl(kind)).url : kind.databaseUrl;
  const service: RunningService = await startService(apiService, {
    env: {},
    argv: [],
    overrides: {
      instanceId: 'apitest',
      curriculumDir: SAMPLE_CURRICULUM,
      curriculumLimits: TEST_CURRICULUM_LIMITS,
      ...server.loginAs('api'),
      httpPort: 0,
      database: { url: databaseUrl },
      logging: { level: 'silent' },
      ...overrides,
      api: { host: '127.0.0.1', adminToken: 'secret-admin-token', ...(overrides.api as object) },
    },
  });
  const dataSource = createDataSource({ url: databaseUrl, poolSize: 2, migrateOnStart: false });
  await dataSource.initialize();
  const data = new DataManager(dataSource);
  for (let i = 0; i < 100 && !(await data.curriculum.getCurriculum()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  // The stand-in scheduler logs in as the scheduler: the only one allowed to serve these requests and publish status.
  const nats = await connect({ servers: server.url, user: server.credentials.scheduler.user, pass: server.credentials.scheduler.password });
  const received: Record<string, unknown[]> = {};
  let held: (() => void)[] | undefined;
  for (const subject of [RequestSubjects.liveLessonCreate, RequestSubjects.liveLessonModify, RequestSubjects.liveLessonDelete]) {
    nats.subscribe(subject, {
      callback: (_error, message) => {
        (received[subject] ??= []).push(message.json());
        const reply = (): void => void message.respond(JSON.stringify({ accepted: true }));
        if (held) held.push(reply);
        else reply();
      },
    });
  }
  await nats.flush();
  let healthchecker: NatsConnection | undefined;
  return {
    url: service.url,
    data,
    nats,
    natsServer: server,
    received,
    server: service.app.getHttpServer() as Server,
    holdScheduler() {
      const replies = (held ??= []);
      return () => {
        held = undefined;
        for (const reply of replies) reply();
      };
    },
    publishStatus(event) {
      const full: LiveLessonStatusChangedEvent = {
        sessionId: 's',
        lessonSlug: 'l',
        error: false,
        stage: 0,
        healthyTests: 0,
        totalTests: 1,
        phaseTimes: {},
        at: new Date().toISOString(),
        ...event,
      };
      nats.publish(EventSubjects.liveLessonStatusChanged, JSON.stringify(full));
    },
    async publishAsHealthchecker(subject, payload) {
      healthchecker ??= await connect({ servers: server.url, user: server.credentials.healthchecker.user, pass: server.credentials.healthchecker.password });
      healthchecker.publish(subject, typeof payload === 'string' ? payload : JSON.stringify(payload));
      await healthchecker.flush();
    },
    async call(method, path, body, headers = {}) {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async stop() {
      await healthchecker?.close();
      await nats.close();
      await data.close();
      await service.stop();
      await server.stop();
    },
  };
}
