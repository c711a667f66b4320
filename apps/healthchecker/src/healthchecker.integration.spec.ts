import { createServer, type AddressInfo } from 'node:net';
import * as k8s from '@kubernetes/client-node';
import { EventSubjects, RequestSubjects, type HealthProgressEvent } from '@antidote/contracts';
import type { DataManager, LiveEndpoint } from '@antidote/data';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { BusClient, connectNats } from '@antidote/messaging';
import type { RunningService } from '@antidote/runtime';
import { makeNewLiveLesson } from '@antidote/testing';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_NOT_ALLOWED } from './health.service.js';
import { startHealthchecker, type HealthcheckerFixture } from '../test/healthchecker-fixture.js';

describe('healthchecker service (real nats-server, SQLite, kube-sim endpoints)', () => {
  let sim: KubeSim;
  let fixture: HealthcheckerFixture;
  let service: RunningService;
  let bus: BusClient;
  let data: DataManager;
  let nats: HealthcheckerFixture['nats'];
  let connection: NatsConnection;

  beforeAll(async () => {
    sim = await startKubeSim({ faults: { podStartDelayMs: 300, serviceAccountDelayMs: 0 } });
    fixture = await startHealthchecker({ probeRanges: [`${sim.ranges.pods}.0.0/16`, `${sim.ranges.services}.0.0/16`] }, 20_000);
    ({ service, bus, data, nats, connection } = fixture);
  });

  afterAll(async () => {
    await fixture?.stop();
    await sim?.stop();
  });

  it('waits until a live lesson on kube-sim pods is reachable, updating the counters and publishing progress', async () => {
    const core = coreOf(sim);
    await core.createNamespace({ body: { metadata: { name: 'hc-lesson' } } });
    const endpoints: LiveEndpoint[] = [];
    for (const [index, [name, port, type]] of (
      [
        ['linux1', 22, 'ssh'],
        ['web1', 80, 'http'],
      ] as const
    ).entries()) {
      await core.createNamespacedPod({
        namespace: 'hc-lesson',
        body: { metadata: { name, labels: { podName: name } }, spec: { containers: [{ name, image: 'utility', ports: [{ containerPort: port }] }] } },
      });
      const svc = await core.createNamespacedService({
        namespace: 'hc-lesson',
        body: { metadata: { name }, spec: { selector: { podName: name }, ports: [{ port }] } },
      });
      endpoints.push({
        name,
        position: index,
        image: 'utility',
        ports: [port],
        presentations: [{ name: 'p', port, type, hepDomain: '' }],
        configurationType: '',
        configurationFile: '',
        sshUser: 'antidote',
        sshPassword: 'antidotepassword',
        host: svc.spec!.clusterIP!,
      });
    }
    await data.liveLessons.create(makeNewLiveLesson({ id: 'hclesson01', endpoints }));
    const progress: HealthProgressEvent[] = [];
    // Progress is heard by the api and operators, not by the scheduler that asks.
    const listener = await connectNats(nats.loginAs('admin'), 'listener');
    const subscription = await new BusClient(listener, { requestTimeoutMs: 30_000 }).subscribe(
      EventSubjects.healthProgressed,
      (event) => void progress.push(event),
    );
    await listener.flush();
    const reply = await bus.request(RequestSubjects.healthWaitReachable, { liveLessonId: 'hclesson01', deadlineMs: 60_000 }, { timeoutMs: 90_000 });
    expect(reply).toMatchObject({ reachable: true, healthy: 2, total: 2 });
    expect(await data.liveLessons.get('hclesson01')).toMatchObject({ healthyTests: 2, totalTests: 2 });
    await expect.poll(() => progress.map((event) => event.healthy).sort(), { timeout: 60_000 }).toEqual([1, 2]);
    subscription.unsubscribe();
    await listener.close();
  });

  it('keeps one wait per lesson across requests, never probes an endpoint again once up, and resumes from the endpoints its row records up', async () => {
    const core = coreOf(sim);
    await core.createNamespace({ body: { metadata: { name: 'hc-resume' } } });
    sim.setFaults({ unreachable: ['late1'] });
    const endpoints: LiveEndpoint[] = [];
    for (const [index, name] of ['early1', 'late1', 'known1'].entries()) {
      await core.createNamespacedPod({
        namespace: 'hc-resume',
        body: { metadata: { name, labels: { podName: name } }, spec: { containers: [{ name, image: 'utility', ports: [{ containerPort: 22 }] }] } },
      });
      const svc = await core.createNamespacedService({
        namespace: 'hc-resume',
        body: { metadata: { name }, spec: { selector: { podName: name }, ports: [{ port: 22 }] } },
      });
      endpoints.push({
        name,
        position: index,
        image: 'utility',
        ports: [22],
        presentations: [{ name: 'cli', port: 22, type: 'ssh', hepDomain: '' }],
        configurationType: '',
        configurationFile: '',
        sshUser: 'antidote',
        sshPassword: 'antidotepassword',
        host: svc.spec!.clusterIP!,
      });
    }
    await expect.poll(() => sim.endpointReport('hc-resume').filter((endpoint) => endpoint.kind === 'Pod').length).toBe(2);
    await data.liveLessons.create(makeNewLiveLesson({ id: 'hclesson04', sessionId: 'session0004', endpoints }));
    // Found up by an earlier healthchecker: recorded on the row, so never probed by this one.
    await data.liveLessons.recordEndpointUp('hclesson04', 'known1');
    const ask = (deadlineMs: number) =>
      bus.request(RequestSubjects.healthWaitReachable, { liveLessonId: 'hclesson04', deadlineMs }, { timeoutMs: deadlineMs + 30_000 });
    const connections = (name: string) =>
      sim.endpointReport('hc-resume').find((endpoint) => endpoint.kind === 'Service' && endpoint.name === name)?.connections['22']?.ready?.count ?? 0;

    await expect.poll(async () => (await ask(200)).healthy).toBe(2);
    const healthSeen: number[] = [(await data.liveLessons.get('hclesson04')).healthyTests];
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await ask(100)).toMatchObject({ reachable: false, healthy: 2, total: 3 });
      healthSeen.push((await data.liveLessons.get('hclesson04')).healthyTests);
    }
    sim.setFaults({ unreachable: [] });
    expect(await ask(60_000)).toMatchObject({ reachable: true, healthy: 3, total: 3 });
    healthSeen.push((await data.liveLessons.get('hclesson04')).healthyTests);
    expect(healthSeen).toEqual([2, 2, 2, 2, 3]);
    // Every endpoint's up time on the row before the reply said all are up (the start's record reads them).
    expect((await data.liveLessons.get('hclesson04')).endpoints.map((endpoint) => endpoint.upAt instanceof Date)).toEqual([true, true, true]);
    // One login each for the endpoints found up here, however many requests asked; none for the one recorded up before.
    expect([connections('early1'), connections('late1'), connections('known1')]).toEqual([1, 1, 0]);
    // Asked again once all are up: answered from the row, nothing probed.
    expect(await ask(60_000)).toMatchObject({ reachable: true, healthy: 3 });
    expect([connections('early1'), connections('late1'), connections('known1')]).toEqual([1, 1, 0]);
  });

  it('checks a live lesson once from its row, and answers unknown live lessons and bad requests with clear errors', async () => {
    await data.liveLessons.create(
      makeNewLiveLesson({ id: 'hclesson02', sessionId: 'session0002', endpoints: [endpointAt('closed', `${sim.ranges.services}.255.254`, 1)] }),
    );
    const reply = await bus.request(RequestSubjects.healthCheck, { liveLessonId: 'hclesson02' });
    expect(reply.endpoints[0]).toMatchObject({ name: 'closed', reachable: false, probes: [expect.objectContaining({ kind: 'tcp', verdict: 'refused' })] });
    await expect(bus.request(RequestSubjects.healthCheck, { liveLessonId: 'nosuchlesson' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const garbage = await connection.request(RequestSubjects.healthWaitReachable, '[1,2', { timeout: 30_000 });
    expect(garbage.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD' } });
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  });

  it('takes no endpoint list from the bus: a request naming hosts is refused before anything is probed', async () => {
    const explicit = JSON.stringify({ endpoints: [{ name: 'scan', host: '127.0.0.1', ports: [22], presentations: [] }] });
    const reply = await connection.request(RequestSubjects.healthCheck, explicit, { timeout: 30_000 });
    expect(reply.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD' } });
  });

  it('refuses an address outside the probe ranges, or a metadata address, even from a row in the database', async () => {
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    try {
      // 127.0.0.1 answers on that port, but it is outside this healthchecker's ranges (kube-sim's pod and Service ranges).
      await data.liveLessons.create(
        makeNewLiveLesson({
          id: 'hclesson03',
          sessionId: 'session0003',
          endpoints: [endpointAt('outside', '127.0.0.1', port), endpointAt('metadata', '169.254.169.254', 80)],
        }),
      );
      const checked = await bus.request(RequestSubjects.healthCheck, { liveLessonId: 'hclesson03' });
      expect([...checked.endpoints].sort((a, b) => b.name.localeCompare(a.name))).toEqual([
        expect.objectContaining({ name: 'outside', reachable: false, probes: [], error: expect.stringMatching(/127\.0\.0\.1 is outside the probe ranges/) }),
        expect.objectContaining({ name: 'metadata', reachable: false, probes: [], error: expect.stringMatching(/link-local or metadata/) }),
      ]);
      await expect(bus.request(RequestSubjects.healthWaitReachable, { liveLessonId: 'hclesson03', deadlineMs: 60_000 })).rejects.toMatchObject({
        code: ADDRESS_NOT_ALLOWED,
        message: expect.stringMatching(/outside the probe ranges/),
      });
      expect(connections).toBe(0);
    } finally {
      listener.close();
    }
  });
});

/** client-node's core API on the simulator. */
function coreOf(sim: KubeSim): k8s.CoreV1Api {
  const config = new k8s.KubeConfig();
  config.loadFromClusterAndUser(
    { name: 'sim', server: sim.url, caData: Buffer.from(sim.ca).toString('base64'), skipTLSVerify: false },
    { name: 'admin', token: sim.token },
  );
  return config.makeApiClient(k8s.CoreV1Api);
}

/** An endpoint row as the scheduler writes it, with a TCP port to probe at `host`. */
function endpointAt(name: string, host: string, port: number): LiveEndpoint {
  return {
    name,
    position: 0,
    image: 'utility',
    ports: [port],
    presentations: [],
    configurationType: '',
    configurationFile: '',
    sshUser: '',
    sshPassword: '',
    host,
  };
}
