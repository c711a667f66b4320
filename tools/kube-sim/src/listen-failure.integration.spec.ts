import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startSim, until, type SimFixture } from '../test/sim-fixture.js';

// A port no other spec listens on, below the ephemeral range (32768–60999) where any process may hold one.
const PORT = 27183;

/**
 * A pod whose port kube-sim cannot open (here: the address:port is taken; at scale: no file descriptor
 * left) does not pass for Running with nothing listening: its container cannot start, and an Event says why.
 */
describe('a port that cannot be opened', () => {
  let fixture: SimFixture;
  let squatter: Server;

  beforeAll(async () => {
    fixture = await startSim();
    // Pod addresses are handed out in order from the simulator's range: the first pod gets `<range>.0.1`.
    squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(PORT, `${fixture.sim.ranges.pods}.0.1`, resolve));
    await fixture.core.createNamespace({ body: { metadata: { name: 'f' } } });
  });
  afterAll(async () => {
    squatter?.close();
    await fixture?.sim.stop();
  });

  it('fails its pod visibly: RunContainerError with the reason, not Ready, a Warning Event', async () => {
    await fixture.core.createNamespacedPod({ namespace: 'f', body: pod('taken', 'antidotelabs/utility', PORT) });
    const failed = await until(async () => {
      const current = await fixture.core.readNamespacedPod({ namespace: 'f', name: 'taken' });
      return current.status?.containerStatuses?.[0]?.state?.waiting ? current : undefined;
    });
    expect(failed.status?.podIP).toBe(`${fixture.sim.ranges.pods}.0.1`);
    expect(failed.status?.phase).not.toBe('Running');
    expect(failed.status?.containerStatuses?.[0]?.state?.waiting).toMatchObject({
      reason: 'RunContainerError',
      message: expect.stringContaining(`cannot listen on ${fixture.sim.ranges.pods}.0.1:${PORT}: listen EADDRINUSE`),
    });
    expect(failed.status?.conditions?.find((condition) => condition.type === 'Ready')?.status).toBe('False');
    const events = await fixture.core.listNamespacedEvent({ namespace: 'f' });
    expect(events.items.find((event) => event.involvedObject.name === 'taken' && event.reason === 'Failed')).toMatchObject({
      type: 'Warning',
      message: expect.stringContaining('EADDRINUSE'),
    });
  });

  it('lets the next pod, on a free address, run and answer', async () => {
    await fixture.core.createNamespacedPod({ namespace: 'f', body: pod('free', 'antidotelabs/utility', PORT) });
    const running = await until(async () => {
      const current = await fixture.core.readNamespacedPod({ namespace: 'f', name: 'free' });
      return current.status?.phase === 'Running' ? current : undefined;
    });
    expect(running.status?.podIP).not.toBe(`${fixture.sim.ranges.pods}.0.1`);
    expect(running.status?.containerStatuses?.[0]?.state?.running).toBeDefined();
  });
});
