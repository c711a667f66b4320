import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startSim, until, type SimFixture } from '../test/sim-fixture.js';

/** Whether a TCP connection to host:port is accepted (false: refused or failed). */
const connects = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('the unreachable fault', () => {
  let fixture: SimFixture;
  beforeAll(async () => {
    fixture = await startSim({ faults: { unreachable: ['vqfx2'] } });
    await fixture.core.createNamespace({ body: { metadata: { name: 'u' } } });
  });
  afterAll(() => fixture?.sim.stop());

  const runningPodIP = (name: string) => until(async () => (await fixture.core.readNamespacedPod({ name, namespace: 'u' })).status?.podIP);
  const service = async (name: string) => {
    const created = await fixture.core.createNamespacedService({
      namespace: 'u',
      body: { metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 22 }] } },
    });
    return created.spec!.clusterIP!;
  };
  const patchFaults = (body: unknown) =>
    fixture.sim
      .fetch(`/_sim/faults`, { method: 'PATCH', body: JSON.stringify(body) })
      .then((response) => response.json() as Promise<{ unreachable: string[] }>);

  it('refuses connections to pods and services of a matching name, while their siblings answer', async () => {
    for (const name of ['vqfx1', 'vqfx2']) await fixture.core.createNamespacedPod({ namespace: 'u', body: pod(name) });
    const [ip1, ip2] = [await runningPodIP('vqfx1'), await runningPodIP('vqfx2')];
    const [svc1, svc2] = [await service('vqfx1'), await service('vqfx2')];
    await expect.poll(() => connects(ip1, 22)).toBe(true);
    await expect.poll(() => connects(svc1, 22)).toBe(true);
    expect((await fixture.core.readNamespacedPod({ name: 'vqfx2', namespace: 'u' })).status?.phase).toBe('Running');
    expect(await connects(ip2, 22)).toBe(false);
    expect(await connects(svc2, 22)).toBe(false);
  });

  it('matches the podName label of a pod whose name differs', async () => {
    await fixture.core.createNamespacedPod({ namespace: 'u', body: pod('renamed', 'antidotelabs/utility:latest', 22, { podName: 'vqfx2' }) });
    expect(await connects(await runningPodIP('renamed'), 22)).toBe(false);
  });

  it('applies at once to running endpoints when changed through the admin API, and lifts again', async () => {
    await fixture.core.createNamespacedPod({ namespace: 'u', body: pod('linux1') });
    const [ip, svc] = [await runningPodIP('linux1'), await service('linux1')];
    await expect.poll(() => connects(svc, 22)).toBe(true);
    expect(await patchFaults({ unreachable: ['linux*'] })).toMatchObject({ unreachable: ['linux*'] });
    await expect.poll(() => connects(svc, 22)).toBe(false);
    expect(await connects(ip, 22)).toBe(false);
    await patchFaults({ unreachable: [] });
    await expect.poll(() => connects(svc, 22)).toBe(true);
    await expect.poll(() => connects(ip, 22)).toBe(true);
    const vqfx2 = await runningPodIP('vqfx2');
    await expect.poll(() => connects(vqfx2, 22)).toBe(true);
  });
});
