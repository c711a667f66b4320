import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startSim, until, type SimFixture } from '../test/sim-fixture.js';

/** An endpoint's SSH listener answers like a small shell, over a real SSH connection (ssh2 client). */
describe('SSH shell of simulated endpoints', () => {
  let fixture: SimFixture;
  let address: string;
  const connect = () =>
    new Promise<ssh2.Client>((resolve, reject) => {
      const client = new ssh2.Client();
      client.on('ready', () => resolve(client)).on('error', reject);
      client.connect({ host: address, port: 22, username: 'antidote', password: 'antidotepassword', readyTimeout: 60_000 });
    });

  beforeAll(async () => {
    fixture = await startSim({ sshUsers: { antidote: 'antidotepassword' } });
    await fixture.core.createNamespacedPod({ namespace: 'default', body: pod('linux1', 'antidotelabs/utility', 22) });
    address = await until(async () => (await fixture.core.readNamespacedPod({ namespace: 'default', name: 'linux1' })).status?.podIP);
  });
  afterAll(() => fixture?.sim.stop());

  it('a pty shell prompts, echoes a command, answers it and closes on exit', async () => {
    const client = await connect();
    const stream = await new Promise<ssh2.ClientChannel>((resolve, reject) =>
      client.shell({ term: 'xterm', rows: 24, cols: 80 }, (error, channel) => (error ? reject(error) : resolve(channel))),
    );
    let output = '';
    stream.on('data', (data: Buffer) => (output += data.toString()));
    const closed = new Promise<number>((resolve) => stream.on('exit', (code: number) => resolve(code)));
    await until(() => output === 'linux1$ ');
    stream.write('echo hello world\r');
    await until(() => output.endsWith('linux1$ ') && output.length > 'linux1$ '.length);
    expect(output).toBe('linux1$ echo hello world\r\nhello world\r\nlinux1$ ');
    stream.write('nosuch\r');
    await until(() => output.includes('nosuch: command not found\r\n'));
    stream.write('exit 2\r');
    expect(await closed).toBe(2);
    client.end();
  });

  it('an exec request runs one command and reports its exit status', async () => {
    const client = await connect();
    const run = (command: string) =>
      new Promise<{ output: string; code: number }>((resolve, reject) =>
        client.exec(command, (error, channel) => {
          if (error) return reject(error);
          let output = '';
          let code = -1;
          channel.on('data', (data: Buffer) => (output += data.toString()));
          channel.on('exit', (status: number) => (code = status));
          channel.on('close', () => resolve({ output, code }));
        }),
      );
    expect(await run('hostname')).toEqual({ output: 'linux1\n', code: 0 });
    expect(await run('whoami && ip addr')).toMatchObject({ output: expect.stringContaining(`antidote\n1: lo:`) as string, code: 0 });
    expect((await run('ip addr')).output).toContain(`inet ${address}/16`);
    expect(await run('bogus')).toEqual({ output: 'bogus: command not found\n', code: 127 });
    client.end();
  });
});
