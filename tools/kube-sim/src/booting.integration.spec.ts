import { connect } from 'node:net';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet, sshExec } from '../test/endpoint-clients.js';
import { pod, startSim, until, type SimFixture } from '../test/sim-fixture.js';

const BOOTING = 'error: the system is still booting, please try again later\n';

/** One command over a real SSH connection, with the password the sim is given. */
const exec = (host: string, command: string) => sshExec(host, 22, command, 'antidotepassword');
const httpStatus = async (host: string, port: number) => (await httpGet(host, port)).status;

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
    await fixture.core.createNamespacedService({
      namespace: 'default',
      body: { metadata: { name: 'vqfx1-svc' }, spec: { selector: { podName: 'vqfx1' }, ports: [{ port: 22 }] } },
    });
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

/** How an SSH login ends: logged in (and the command's answer), or the error or close before that. */
const sshLogin = (host: string) =>
  new Promise<string>((resolve) => {
    const client = new ssh2.Client();
    let settled = false;
    const settle = (outcome: string) => {
      if (settled) return;
      settled = true;
      client.end();
      resolve(outcome);
    };
    client
      .on('ready', () =>
        client.exec('hostname', (error, channel) => {
          if (error) return settle(`exec failed: ${error.message}`);
          let output = '';
          channel.on('data', (data: Buffer) => (output += data.toString()));
          channel.on('close', () => settle(`logged in: ${output.trim()}`));
        }),
      )
      .on('error', (error: Error & { level?: string }) => settle(`error (${error.level ?? 'socket'}): ${error.message}`))
      .on('close', () => settle('closed'))
      .connect({ host, port: 22, username: 'antidote', password: 'antidotepassword', readyTimeout: 60_000 });
  });

/** Boot profiles by image: each pod at a stage that lasts an hour, so what it answers does not depend on timing. */
describe('boot profiles', () => {
  let fixture: SimFixture;
  const HOUR = 3_600_000;
  const ipOf = (name: string) => until(async () => (await fixture.core.readNamespacedPod({ namespace: 'default', name })).status?.podIP);

  beforeAll(async () => {
    fixture = await startSim({
      sshUsers: { antidote: 'antidotepassword' },
      faults: {
        bootProfiles: {
          'stage/down*': { portMs: HOUR, loginMs: HOUR, cliMs: HOUR },
          'stage/login*': { portMs: 0, loginMs: HOUR, cliMs: HOUR },
          'stage/booting*': { portMs: 0, loginMs: 0, cliMs: HOUR },
          'stage/failed*': { portMs: 0, loginMs: 0, cliMs: 0, fail: true },
          'stage/*': { portMs: 0, loginMs: 0, cliMs: 0 },
        },
      },
    });
    for (const name of ['down', 'login', 'booting', 'failed', 'ready'])
      await fixture.core.createNamespacedPod({ namespace: 'default', body: pod(`${name}1`, `stage/${name}:1`, 22, { podName: `${name}1` }) });
    await fixture.core.createNamespacedService({
      namespace: 'default',
      body: { metadata: { name: 'booting1-svc' }, spec: { selector: { podName: 'booting1' }, ports: [{ port: 22 }] } },
    });
    await fixture.core.createNamespacedPod({ namespace: 'default', body: pod('web-login1', 'stage/login-web:1', 8080) });
  });
  afterAll(() => fixture?.sim.stop());

  it('answers by stage: connection closed at once, closed at login, logged in but booting, ready; a failed boot stays at its login', async () => {
    expect(await sshLogin(await ipOf('down1'))).toBe('error (protocol): Connection lost before handshake');
    expect(await sshLogin(await ipOf('login1'))).toBe('closed');
    expect(await sshLogin(await ipOf('booting1'))).toBe('logged in: error: the system is still booting, please try again later');
    expect(await sshLogin(await ipOf('failed1'))).toBe('closed');
    expect(await sshLogin(await ipOf('ready1'))).toBe('logged in: ready1');
    // A Service boots with the pod it selects.
    const service = await until(async () => (await fixture.core.readNamespacedService({ namespace: 'default', name: 'booting1-svc' })).spec?.clusterIP);
    expect(await sshLogin(service)).toBe('logged in: error: the system is still booting, please try again later');
    expect(fixture.sim.endpointReport('default').find((endpoint) => endpoint.name === 'booting1-svc')).toMatchObject({
      kind: 'Service',
      stage: 'booting',
      boot: { pattern: 'stage/booting*' },
      connections: { '22': { booting: { count: 1 } } },
    });
    expect(await httpStatus(await ipOf('web-login1'), 8080)).toBe(503);
  });

  it('reports each endpoint with its boot and the connections it accepted by port and stage', async () => {
    const address = await ipOf('login1');
    const before = fixture.sim.endpointReport('default').find((endpoint) => endpoint.name === 'login1')?.connections['22']?.login?.count ?? 0;
    await sshLogin(address);
    await sshLogin(address);
    const report = fixture.sim.endpointReport('default').find((endpoint) => endpoint.name === 'login1');
    expect(report).toMatchObject({
      kind: 'Pod',
      address,
      image: 'stage/login:1',
      stage: 'login',
      boot: { pattern: 'stage/login*', portMs: 0, loginMs: HOUR, cliMs: HOUR },
    });
    expect(report!.connections['22'].login!.count).toBe(before + 2);
    expect(report!.connections['22'].ready).toBeUndefined();
  });

  it('writes the boot into the pod log', async () => {
    await ipOf('down1');
    const log = await fixture.core.readNamespacedPodLog({ namespace: 'default', name: 'down1' });
    expect(log).toContain('booting (profile stage/down*): SSH port at 3600.0 s, login at 3600.0 s, CLI at 3600.0 s');
  });
});
