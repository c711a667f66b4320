import type * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banner, httpGet, sshExec } from '../test/endpoint-clients.js';
import { startSim, until, type SimFixture } from '../test/sim-fixture.js';

// Ports no other spec listens on, and below the ephemeral range (32768–60999), where any process's listener
// on port 0 or outgoing connection may hold one: the wildcard socket of a port takes it on every address of the machine.
const SSH = 2222;
const HTTP = 9090;
const TCP = 27182;
const NAMES = ['vqfx1', 'vqfx2', 'linux1', 'linux2', 'web1'];

const endpointPod = (name: string): k8s.V1Pod => ({
  metadata: { name, labels: { app: name } },
  spec: { containers: [{ name: 'main', image: `antidotelabs/${name}`, ports: [SSH, HTTP, TCP].map((containerPort) => ({ containerPort })) }] },
});

/**
 * Past `sharedListenersAfter` addresses on a port, one wildcard socket serves the port for every pod and
 * Service: each connection still reaches the endpoint it was made to, with all its behaviours.
 */
describe('shared endpoint listeners', () => {
  let fixture: SimFixture;
  const podIP: Record<string, string> = {};
  const clusterIP: Record<string, string> = {};

  beforeAll(async () => {
    fixture = await startSim({ sharedListenersAfter: 2, faults: { booting: ['web1'] } });
    await fixture.core.createNamespace({ body: { metadata: { name: 's' } } });
    for (const name of NAMES) {
      await fixture.core.createNamespacedPod({ namespace: 's', body: endpointPod(name) });
      const service = await fixture.core.createNamespacedService({
        namespace: 's',
        body: { metadata: { name }, spec: { selector: { app: name }, ports: [{ port: SSH }] } },
      });
      clusterIP[name] = service.spec!.clusterIP!;
    }
    for (const name of NAMES) podIP[name] = await until(async () => (await fixture.core.readNamespacedPod({ namespace: 's', name })).status?.podIP);
  });
  afterAll(() => fixture?.sim.stop());

  it('opens one socket per port for all pods and Services, however many answer', async () => {
    await expect.poll(() => fixture.sim.stats().listeners).toBe(NAMES.length * 4);
    expect(fixture.sim.stats().endpointSockets).toBe(3);
  });

  it('answers SSH, HTTP and a banner as the endpoint connected to', async () => {
    for (const name of ['vqfx1', 'linux2']) {
      expect(await sshExec(podIP[name], SSH, 'hostname')).toEqual({ output: `${name}\n`, code: 0 });
      expect(await sshExec(clusterIP[name], SSH, 'hostname')).toEqual({ output: `${name}\n`, code: 0 });
      expect(await httpGet(podIP[name], HTTP)).toMatchObject({ status: 200, body: expect.stringContaining(`${podIP[name]}:${HTTP}`) });
      expect(await banner(podIP[name], TCP)).toBe(`${name} ready`);
    }
  });

  it('keeps per-endpoint faults: a booting endpoint answers as booting, its siblings as ready', async () => {
    expect(await httpGet(podIP.web1, HTTP)).toMatchObject({ status: 503 });
    expect(await banner(podIP.web1, TCP)).toBe('web1 booting');
    expect(await banner(podIP.linux1, TCP)).toBe('linux1 ready');
  });

  it('hangs up on an address no endpoint holds, and on an unreachable or deleted one, at once', async () => {
    const nobody = `${fixture.sim.ranges.pods}.200.200`;
    expect(['ECONNRESET', 'closed']).toContain(await banner(nobody, TCP));

    fixture.sim.setFaults({ unreachable: ['vqfx2'] });
    expect(['ECONNRESET', 'closed']).toContain(await banner(podIP.vqfx2, TCP));
    expect(['ECONNRESET', 'closed']).toContain(await banner(clusterIP.vqfx2, SSH));
    expect(await banner(podIP.vqfx1, TCP)).toBe('vqfx1 ready');
    fixture.sim.setFaults({ unreachable: [] });
    await expect.poll(() => banner(podIP.vqfx2, TCP)).toBe('vqfx2 ready');

    await fixture.core.deleteNamespacedPod({ namespace: 's', name: 'linux1' });
    await expect.poll(() => banner(podIP.linux1, TCP)).toMatch(/^(ECONNRESET|closed)$/);
    expect(await banner(podIP.linux2, TCP)).toBe('linux2 ready');
  });
});
