import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BusIdentities, EventSubjects, RequestSubjects, type BusIdentity, type LiveLessonStatusChangedEvent } from '@antidote/contracts';
import { readCurriculum } from '@antidote/curriculum';
import { createDataSource, DataManager, runMigrations, type LiveLesson } from '@antidote/data';
import { liveLessonRecord } from '@antidote/lesson-objects';
import { BusClient, connectNats } from '@antidote/messaging';
import { startService, type RunningService, type ServiceDefinition } from '@antidote/runtime';
import type { ClusterObject, ClusterSimulator, PlatformFaults, SimulatedCluster } from './cluster.port.js';
import { SAMPLE_CURRICULUM, TEST_CURRICULUM_LIMITS } from './hostile-curricula.js';
import type { NatsConnection } from '@nats-io/transport-node';
import { testDatabaseUrl, type DatabaseKind } from './test-database.js';
import { testNats } from './test-servers.js';

export const INSTANCE = 'antidote-it';

export interface PlatformOptions<N extends string> {
  /** The services to run, started in this order; more can be started by name later. */
  services: Record<N, ServiceDefinition>;
  /** Config on top of the test defaults (short timeouts, silent logs, free ports). */
  overrides?: Record<string, unknown>;
  /** A database of the test's own (e.g. on a PostgreSQL it restarts) instead of a fresh one of `kind`. */
  databaseUrl?: string;
}

export interface TestPlatformOptions<N extends string, S extends SimulatedCluster, F extends PlatformFaults> extends PlatformOptions<N> {
  /** The simulated cluster the services run on: `startKubeSim` of `@antidote/kube-sim`. */
  cluster: ClusterSimulator<S, F>;
  faults?: Partial<NoInfer<F>>;
  /** Objects the cluster holds before any service starts (e.g. a Lease another replica holds). */
  objects?: ClusterObject[];
}

/**
 * Services as they run for real, in process: a nats-server, a simulated cluster (with the TLS secret to copy), a
 * database of the given kind holding the sample curriculum, and the given services on them; plus a bus
 * client, a DataManager and the status events, for the test to act as the api does.
 */
export async function startTestPlatform<N extends string, S extends SimulatedCluster, F extends PlatformFaults>(
  kind: DatabaseKind,
  options: TestPlatformOptions<N, S, F>,
) {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'sched-')), 'kubeconfig');
  const sim = await options.cluster({
    kubeconfigPath: kubeconfig,
    faults: Object.assign({ podStartDelayMs: 50, jobRunDelayMs: 50 }, options.faults),
    objects: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod' } },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'tls-certificate', namespace: 'prod' },
        type: 'kubernetes.io/tls',
        data: { 'tls.crt': 'Y3J0', 'tls.key': 'a2V5' },
      },
      ...(options.objects ?? []),
    ],
  });
  const platform = await startPlatformOn(kind, options, () => kubeconfig);
  return { ...platform, sim, config: { ...platform.config, k8sOutOfClusterConfigPath: kubeconfig }, stop: () => platform.stop(() => sim.stop()) };
}

/**
 * The same platform on a cluster reached through a kubeconfig per service (e.g. a real control plane,
 * each app with its own ServiceAccount token).
 */
export async function startPlatformOn<N extends string>(kind: DatabaseKind, options: PlatformOptions<N>, kubeconfigOf: (service: N) => string) {
  const { overrides = {} } = options;
  const nats = await testNats();
  const url = options.databaseUrl ?? (await testDatabaseUrl(kind)).url;
  const merged = {
    instanceId: INSTANCE,
    curriculumDir: SAMPLE_CURRICULUM,
    curriculumLimits: TEST_CURRICULUM_LIMITS,
    hepsDomain: 'heps.test',
    natsUrl: nats.url,
    database: { url },
    k8sInCluster: false,
    ops: { schedulerPort: 0, healthcheckerPort: 0, reaperPort: 0, host: '127.0.0.1' },
    logging: { level: process.env.ANTIDOTE_TEST_LOG ?? 'silent' },
    healthcheck: { probeTimeoutMs: 10_000, intervalMs: 100 },
    timeouts: { podRunningSeconds: 20, reachabilitySeconds: 20, configJobSeconds: 20, namespaceDeleteSeconds: 20 },
    scheduler: { redriveIntervalSeconds: 1, redriveAfterSeconds: 1, claimLeaseSeconds: 5 },
    ...overrides,
  };
  // The pre-pull DaemonSet's calls would take injected faults meant for lessons: off unless a spec asks for it.
  const config = { ...merged, scheduler: { prePull: { enabled: false }, ...(merged.scheduler as Record<string, unknown>) } };
  const running = new Map<string, RunningService[]>();
  /** Each service connects to NATS as itself, with its own permissions, as it does when deployed. */
  const identityOf = ({ name }: ServiceDefinition): BusIdentity => {
    if ((BusIdentities as readonly string[]).includes(name)) return name as BusIdentity;
    throw new Error(`no NATS identity for a service named ${name}`);
  };
  const start = async (name: N): Promise<RunningService> => {
    const definition = options.services[name];
    const service = await startService(definition, {
      env: {},
      argv: [],
      overrides: { k8sOutOfClusterConfigPath: kubeconfigOf(name), ...config, ...nats.loginAs(identityOf(definition)) },
    });
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
  // A no-op when a service migrated already; with no service in process (apps run as processes later), the schema for the curriculum.
  await runMigrations(dataSource);
  const data = new DataManager(dataSource);
  const read = await readCurriculum(SAMPLE_CURRICULUM, { tier: 'prod', instanceId: INSTANCE });
  if (!read.curriculum) throw new Error(`sample curriculum invalid: ${read.problems.map((p) => p.message).join('; ')}`);
  await data.curriculum.replaceCurriculum(read.curriculum);
  // The test acts as an operator's tool would: it may ask the scheduler and the reaper, and hears every event.
  const connection: NatsConnection = await connectNats(nats.loginAs('admin'), 'test');
  const bus = new BusClient(connection, { requestTimeoutMs: 30_000 });
  const events: LiveLessonStatusChangedEvent[] = [];
  await bus.subscribe(EventSubjects.liveLessonStatusChanged, (event) => void events.push(event));
  let ids = 0;

  return {
    /** The nats-server: `restart()` keeps its port, so the services' clients reconnect to it. */
    nats,
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
      return data.liveLessons.create(
        liveLessonRecord(lesson, { id, sessionId, instanceId: INSTANCE, hepsDomain: 'heps.test', stage, imageOf: (s) => images.get(s) }),
      );
    },
    /** Deletes a live lesson as the api and the reaper do: the deletion recorded on the row, then the request. */
    async deleteLiveLesson(id: string) {
      await data.liveLessons.requestDeletion(id);
      return bus.request(RequestSubjects.liveLessonDelete, { liveLessonId: id, reason: 'test' });
    },
    eventsOf: (id: string) => events.filter((event) => event.liveLessonId === id),
    /** Stops the services, then `cluster` (the cluster's own stop), then the database and nats-server. */
    async stop(cluster: () => Promise<void> = () => Promise.resolve()) {
      await connection.close().catch(() => undefined);
      for (const name of [...running.keys()].reverse()) await stopService(name as N);
      await data.close();
      await cluster();
      await nats.stop();
    },
  };
}

export type TestPlatform<N extends string = string, S extends SimulatedCluster = SimulatedCluster> = Awaited<
  ReturnType<typeof startTestPlatform<N, S, PlatformFaults>>
>;
export type ClusterPlatform<N extends string = string> = Awaited<ReturnType<typeof startPlatformOn<N>>>;
