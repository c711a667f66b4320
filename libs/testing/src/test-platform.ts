import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSubjects, type LiveLessonStatusChangedEvent } from '@antidote/contracts';
import { readCurriculum } from '@antidote/curriculum';
import { createDataSource, DataManager, type LiveLesson } from '@antidote/data';
import { liveLessonRecord } from '@antidote/lesson-objects';
import { startKubeSim, type Faults, type KubeObject } from '@antidote/kube-sim';
import { BusClient, connectNats } from '@antidote/messaging';
import { startService, type RunningService, type ServiceDefinition } from '@antidote/runtime';
import type { NatsConnection } from '@nats-io/transport-node';
import { testDatabaseUrl, type DatabaseKind } from './test-database.js';
import { testNats } from './test-servers.js';

export const INSTANCE = 'antidote-it';
const sample = join(import.meta.dirname, '..', '..', '..', 'examples', 'curriculum');

export interface TestPlatformOptions<N extends string> {
  /** The services to run, started in this order; more can be started by name later. */
  services: Record<N, ServiceDefinition>;
  faults?: Partial<Faults>;
  /** Objects kube-sim holds before any service starts (e.g. a Lease another replica holds). */
  objects?: KubeObject[];
  /** Config on top of the test defaults (short timeouts, silent logs, free ports). */
  overrides?: Record<string, unknown>;
  /** A database of the test's own (e.g. on a PostgreSQL it restarts) instead of a fresh one of `kind`. */
  databaseUrl?: string;
}

/**
 * Services as they run for real, in process: a nats-server, kube-sim (with the TLS secret to copy), a
 * database of the given kind holding the sample curriculum, and the given services on them; plus a bus
 * client, a DataManager and the status events, for the test to act as the api does.
 */
export async function startTestPlatform<N extends string>(kind: DatabaseKind, options: TestPlatformOptions<N>) {
  const { faults = {}, overrides = {} } = options;
  const nats = await testNats();
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'sched-')), 'kubeconfig');
  const sim = await startKubeSim({
    kubeconfigPath: kubeconfig,
    faults: { podStartDelayMs: 50, jobRunDelayMs: 50, ...faults },
    objects: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod' } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'tls-certificate', namespace: 'prod' }, type: 'kubernetes.io/tls', data: { 'tls.crt': 'Y3J0', 'tls.key': 'a2V5' } },
      ...(options.objects ?? []),
    ],
  });
  const url = options.databaseUrl ?? (await testDatabaseUrl(kind)).url;
  const config = {
    instanceId: INSTANCE,
    curriculumDir: sample,
    hepsDomain: 'heps.test',
    natsUrl: nats.url,
    database: { url },
    k8sInCluster: false,
    k8sOutOfClusterConfigPath: kubeconfig,
    ops: { schedulerPort: 0, healthcheckerPort: 0, reaperPort: 0, host: '127.0.0.1' },
    logging: { level: process.env.ANTIDOTE_TEST_LOG ?? 'silent' },
    healthcheck: { probeTimeoutMs: 1000, intervalMs: 100 },
    timeouts: { podRunningSeconds: 20, reachabilitySeconds: 20, configJobSeconds: 20, namespaceDeleteSeconds: 20 },
    scheduler: { redriveIntervalSeconds: 1, redriveAfterSeconds: 1, claimLeaseSeconds: 5 },
    ...overrides,
  };
  const running = new Map<string, RunningService[]>();
  const start = async (name: N): Promise<RunningService> => {
    const service = await startService(options.services[name], { env: {}, argv: [], overrides: config });
    running.set(name, [...(running.get(name) ?? []), service]);
    return service;
  };
  const stopService = async (name: N, service?: RunningService): Promise<void> => {
    const instances = running.get(name) ?? [];
    for (const instance of service ? [service] : instances) await instance.stop();
    running.set(name, service ? instances.filter((i) => i !== service) : []);
  };
  for (const name of Object.keys(options.services) as N[]) await start(name);
  const dataSource = createDataSource({ url, poolSize: 3, migrateOnStart: false });
  await dataSource.initialize();
  const data = new DataManager(dataSource);
  const read = await readCurriculum(sample, { tier: 'prod', instanceId: INSTANCE });
  if (!read.curriculum) throw new Error(`sample curriculum invalid: ${read.problems.map((p) => p.message).join('; ')}`);
  await data.curriculum.replaceCurriculum(read.curriculum);
  const connection: NatsConnection = await connectNats({ natsUrl: nats.url, nats: { requestTimeoutSeconds: 10 } }, 'test');
  const bus = new BusClient(connection, { requestTimeoutMs: 10_000 });
  const events: LiveLessonStatusChangedEvent[] = [];
  await bus.subscribe(EventSubjects.liveLessonStatusChanged, (event) => void events.push(event));
  let ids = 0;

  return {
    /** The nats-server: `restart()` keeps its port, so the services' clients reconnect to it. */
    nats,
    sim,
    data,
    bus,
    connection,
    events,
    config,
    start,
    stopService,
    /** The running instances of a service, oldest first. */
    running: (name: N): RunningService[] => [...(running.get(name) ?? [])],
    /** Writes the live lesson row as the api does (no request sent). */
    async newLiveLesson(slug: string, stage = 0): Promise<LiveLesson> {
      const lesson = await data.curriculum.getLesson(slug);
      const images = new Map((await data.curriculum.listImages()).map((image) => [image.slug, image]));
      const id = `ll${kind.slice(0, 2)}${String(++ids).padStart(6, '0')}`;
      const sessionId = `se${kind.slice(0, 2)}${String(ids).padStart(6, '0')}`;
      await data.liveSessions.create({ id: sessionId, sourceIp: '127.0.0.1' });
      return data.liveLessons.create(liveLessonRecord(lesson, { id, sessionId, instanceId: INSTANCE, hepsDomain: 'heps.test', stage, imageOf: (s) => images.get(s) }));
    },
    eventsOf: (id: string) => events.filter((event) => event.liveLessonId === id),
    async stop() {
      await connection.close().catch(() => undefined);
      for (const name of [...running.keys()].reverse()) await stopService(name as N);
      await data.close();
      await sim.stop();
      await nats.stop();
    },
  };
}

export type TestPlatform<N extends string = string> = Awaited<ReturnType<typeof startTestPlatform<N>>>;
