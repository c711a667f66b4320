import { request } from 'node:http';
import { connect } from 'node:net';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startSim, until, type SimFixture } from '../test/sim-fixture.js';

const BOOTING = 'error: the system is still booting, please try again later\n';

/** One command over a real SSH connection. */
const exec = (host: string, command: string) =>
  new Promise<{ output: string; code: number }>((resolve, reject) => {
    const client = new ssh2.Client();
    client
      .on('ready', () =>
        client.exec(command, (error, channel) => {
          if (error) return reject(error);
          let output = '';
          let code = -1;
          channel.on('data', (data: Buffer) => (output += data.toString()));
          channel.on('exit', (status: number) => (code = status));
          channel.on('close', () => (client.end(), resolve({ output, code })));
        }),
      )
      .on('error', reject)
      .connect({ host, port: 22, username: 'antidote', password: 'antidotepassword', readyTimeout: 60_000 });
  });

const httpStatus = (host: string, port: number) =>
  new Promise<number>((resolve, reject) => {
    const outgoing = request({ host, port, path: '/', agent: false }, (response) => (response.resume(), resolve(response.statusCode ?? 0)));
    outgoing.on('error', reject).end();
  });

const bannerOf = (host: string, port: number) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect({ host, port });
    socket.once('data', (data: Buffer) => (socket.destroy(), resolve(data.toString())));
    socket.once('error', reject);
  });

/** Endpoints whose ports answer while the system behind them is still booting (`booting`, `bootDelayMs`). */
describe('booting endpoints', () => {
  let fixture: SimFixture;
  const ipOf = (name: string) => until(async () => (await fixture.core.readNamespacedPod({ namespace: 'default', name })).status?.podIP);

  beforeAll(async () => {
    fixture = await startSim({ sshUsers: { antidote: 'antidotepassword' }, faults: { booting: ['vqfx1', 'web1', 'tcp1'] } });
    await fixture.core.createNamespacedPod({ namespace: 'default', body: pod('vqfx1', 'antidotelabs/vqfx:19', 22, { podName: 'vqfx1' }) });
    await fixture.core.createNamespacedPod({ namespace: 'default', body: pod('web1', 'antidotelabs/utility', 8080) });
    await fixture.core.createNamespacedPod({ namespace: 'default', body: pod('tcp1', 'antidotelabs/utility', 7000) });
    await fixture.core.createNamespacedService({ namespace: 'default', body: { metadata: { name: 'vqfx1-svc' }, spec: { selector: { podName: 'vqfx1' }, ports: [{ port: 22 }] } } });
  });
  afterAll(() => fixture?.sim.stop());

  it('answers on its ports while booting (shell: the booting line, HTTP 503, banner "booting"), then normally once the fault is off', async () => {
    const [vqfx, web, tcp] = [await ipOf('vqfx1'), await ipOf('web1'), await ipOf('tcp1')];
    const service = await until(async () => (await fixture.core.readNamespacedService({ namespace: 'default', name: 'vqfx1-svc' })).spec?.clusterIP);
    expect(await exec(vqfx, 'show version')).toEqual({ output: BOOTING, code: 1 });
    // A Service boots with the pod it selects.
    expect(await exec(service, 'show version')).toEqual({ output: BOOTING, code: 1 });
    expect(await httpStatus(web, 8080)).toBe(503);
    expect(await bannerOf(tcp, 7000)).toBe('tcp1 booting\r\n');

    fixture.sim.setFaults({ booting: [] });
    expect(await exec(vqfx, 'show version')).toMatchObject({ output: expect.stringContaining('Model: kube-sim') as string, code: 0 });
    expect(await exec(service, 'show version')).toMatchObject({ code: 0 });
    expect(await httpStatus(web, 8080)).toBe(200);
    expect(await bannerOf(tcp, 7000)).toBe('tcp1 ready\r\n');
  });

  it('bootDelayMs: a pod boots that long after its ports open (a long one: booting; a short one: ready in the end)', async () => {
    fixture.sim.setFaults({ bootDelayMs: 3_600_000 });
    await fixture.core.createNamespacedPod({ namespace: 'default', body: pod('slow1', 'antidotelabs/utility', 22) });
    const slow = await ipOf('slow1');
    expect(await exec(slow, 'hostname')).toEqual({ output: BOOTING, code: 1 });

    fixture.sim.setFaults({ bootDelayMs: 1 });
    await fixture.core.createNamespacedPod({ namespace: 'default', body: pod('quick1', 'antidotelabs/utility', 22) });
    const quick = await ipOf('quick1');
    await expect.poll(async () => (await exec(quick, 'hostname')).output).toBe('quick1\n');
    // The long boot is not shortened by a later setting.
    expect(await exec(slow, 'hostname')).toEqual({ output: BOOTING, code: 1 });
  });
});
