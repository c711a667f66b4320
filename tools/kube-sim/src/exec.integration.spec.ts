import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, startSim, until, type SimFixture } from '../test/sim-fixture.js';

/** `kubectl exec` (WebSocket v5/v4 channel protocol) into a pod's simulated shell. */
describe('kubectl exec into kube-sim pods', () => {
  let fixture: SimFixture;
  const args = (...rest: string[]): string[] => ['--kubeconfig', fixture.kubeconfig, '-n', 'default', ...rest];
  /** Runs kubectl with `input` on stdin (then closed); resolves with its output and exit code. */
  const kubectl = (input: string | undefined, ...rest: string[]) =>
    new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
      const child = spawn('kubectl', args(...rest), { stdio: ['pipe', 'pipe', 'pipe'] });
      let [stdout, stderr] = ['', ''];
      child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
      child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
      child.on('close', (code) => resolve({ stdout, stderr, code }));
      child.stdin.end(input ?? '');
    });

  beforeAll(async () => {
    fixture = await startSim();
    await fixture.core.createNamespacedPod({ namespace: 'default', body: pod('shell', 'antidotelabs/utility', 22) });
    await until(async () => (await fixture.core.readNamespacedPod({ namespace: 'default', name: 'shell' })).status?.phase === 'Running');
  });
  afterAll(() => fixture?.sim.stop());

  it('runs a command and prints its output', async () => {
    expect(await kubectl(undefined, 'exec', 'shell', '--', 'echo', 'hi')).toMatchObject({ stdout: 'hi\n', code: 0 });
    expect(await kubectl(undefined, 'exec', 'shell', '--', 'hostname')).toMatchObject({ stdout: 'shell\n', code: 0 });
  }, 180_000);

  it('passes the exit status on, as kubectl does with a real kubelet', async () => {
    const failed = await kubectl(undefined, 'exec', 'shell', '--', 'sh', '-c', 'exit 3');
    expect(failed).toMatchObject({ code: 3, stderr: expect.stringContaining('command terminated with exit code 3') as string });
    expect(await kubectl(undefined, 'exec', 'shell', '--', 'nosuch')).toMatchObject({
      code: 127,
      stderr: expect.stringContaining('nosuch: command not found') as string,
    });
  }, 180_000);

  it('-i with piped stdin runs a shell script and exits at its end', async () => {
    expect(await kubectl('echo one\nwhoami\nuname -n\n', 'exec', '-i', 'shell', '--', 'sh')).toMatchObject({ stdout: 'one\nroot\nshell\n', code: 0 });
  }, 180_000);

  it('-it gives an interactive shell through a terminal', async () => {
    // util-linux `script` gives kubectl a pty, as a user's terminal would.
    const child = spawn('script', ['-qec', ['kubectl', ...args('exec', '-it', 'shell', '--', 'sh')].join(' '), '/dev/null'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    let ended = false;
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => ((ended = true), resolve(code))));
    // Until the text is there or kubectl is gone; then what the terminal showed says which it was.
    const shows = async (text: string) => {
      await until(() => output.includes(text) || ended, 120_000);
      expect(output, `the terminal (kubectl ${ended ? 'exited' : 'still running'})`).toContain(text);
    };
    await shows('shell# ');
    child.stdin.write('echo hi there\r');
    await shows('hi there\r\nshell# ');
    child.stdin.write('exit 4\r');
    expect(await exited).toBe(4);
    expect(output).toContain('shell# echo hi there\r\nhi there\r\n');
  }, 180_000);

  it('refuses exec into a missing pod and a plain (non-upgrade) request', async () => {
    expect(await kubectl(undefined, 'exec', 'ghost', '--', 'echo')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('pods "ghost" not found') as string,
    });
    const plain = await fixture.sim.fetch(`/api/v1/namespaces/default/pods/shell/exec?command=echo`, { method: 'POST' });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { message: string }).message).toBe('Upgrade request required');
  }, 180_000);
});
