import * as k8s from '@kubernetes/client-node';
import { EventSubjects, RequestSubjects, type HealthProgressEvent } from '@antidote/contracts';
import { createDataSource, DataManager, type LiveEndpoint } from '@antidote/data';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { BusClient, connectNats } from '@antidote/messaging';
import { startService, type RunningService } from '@antidote/runtime';
import { makeNewLiveLesson, testDatabaseUrl, testNats } from '@antidote/testing';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthcheckerService } from './healthchecker.definition.js';

describe('healthchecker service (real nats-server, SQLite, kube-sim endpoints)', () => {
  let nats: Awaited<ReturnType<typeof testNats>>;
  let sim: KubeSim;
  let service: RunningService;
  let connection: NatsConnection;
  let bus: BusClient;
  let data: DataManager;

  beforeAll(async () => {
    nats = await testNats();
    sim = await startKubeSim({ faults: { podStartDelayMs: 300 } });
    const { url } = await testDatabaseUrl('sqlite');
    service = await startService(healthcheckerService, {
      env: {},
      argv: [],
      overrides: { instanceId: 'hc', curriculumDir: '/c', natsUrl: nats.url, database: { url }, ops: { healthcheckerPort: 0, host: '127.0.0.1' }, logging: { level: 'silent' }, healthcheck: { probeTimeoutMs: 500, intervalMs: 100 } },
    });
    const dataSource = createDataSource({ url, poolSize: 2, migrateOnStart: false });
    await dataSource.initialize();
    data = new DataManager(dataSource);
    connection = await connectNats({ natsUrl: nats.url, nats: { requestTimeoutSeconds: 10 } }, 'test');
    bus = new BusClient(connection, { requestTimeoutMs: 20_000 });
  });

  afterAll(async () => {
    await connection?.close();
    await data?.close();
    await service?.stop();
    await sim?.stop();
    await nats?.stop();
  });

  it('waits until a live lesson on kube-sim pods is reachable, updating the counters and publishing progress', async () => {
    const config = new k8s.KubeConfig();
    config.loadFromClusterAndUser({ name: 'sim', server: sim.url, skipTLSVerify: true }, { name: 'u' });
    const core = config.makeApiClient(k8s.CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'hc-lesson' } } });
    const endpoints: LiveEndpoint[] = [];
    for (const [index, [name, port, type]] of ([['linux1', 22, 'ssh'], ['web1', 80, 'http']] as const).entries()) {
      await core.createNamespacedPod({ namespace: 'hc-lesson', body: { metadata: { name, labels: { podName: name } }, spec: { containers: [{ name, image: 'utility', ports: [{ containerPort: port }] }] } } });
      const svc = await core.createNamespacedService({ namespace: 'hc-lesson', body: { metadata: { name }, spec: { selector: { podName: name }, ports: [{ port }] } } });
      endpoints.push({ name, position: index, image: 'utility', ports: [port], presentations: [{ name: 'p', port, type, hepDomain: '' }], configurationType: '', configurationFile: '', sshUser: 'antidote', sshPassword: 'antidotepassword', host: svc.spec!.clusterIP! });
    }
    await data.liveLessons.create(makeNewLiveLesson({ id: 'hclesson01', endpoints }));
    const progress: HealthProgressEvent[] = [];
    const subscription = await bus.subscribe(EventSubjects.healthProgressed, (event) => void progress.push(event));
    const reply = await bus.request(RequestSubjects.healthWaitReachable, { liveLessonId: 'hclesson01', deadlineMs: 10_000 }, { timeoutMs: 20_000 });
    expect(reply).toMatchObject({ reachable: true, healthy: 2, total: 2 });
    expect((await data.liveLessons.get('hclesson01'))).toMatchObject({ healthyTests: 2, totalTests: 2 });
    await connection.flush();
    expect(progress.map((event) => event.healthy).sort()).toEqual([1, 2]);
    subscription.unsubscribe();
  });

  it('checks explicit endpoints once, and answers unknown live lessons and bad requests with clear errors', async () => {
    const reply = await bus.request(RequestSubjects.healthCheck, { endpoints: [{ name: 'closed', host: '127.0.0.1', ports: [1], presentations: [] }] });
    expect(reply.endpoints[0]).toMatchObject({ name: 'closed', reachable: false, probes: [expect.objectContaining({ kind: 'tcp', verdict: 'refused' })] });
    await expect(bus.request(RequestSubjects.healthCheck, { liveLessonId: 'nosuchlesson' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const garbage = await connection.request(RequestSubjects.healthWaitReachable, '[1,2', { timeout: 5000 });
    expect(garbage.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD' } });
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  });
});
