import { describe, expect, it } from 'vitest';
import { runCommand, SimShell } from './sim-shell.js';
import { BOOTING_ANSWER, words, type ShellIdentity } from './shell-commands.js';

const pod = { hostname: 'web-1', user: 'root', address: '127.10.0.5', image: 'antidotelabs/utility' };

function session(tty: boolean, identity: ShellIdentity = pod): { shell: SimShell; output: () => string; exitCode: () => number | undefined } {
  let output = '';
  let code: number | undefined;
  const shell = new SimShell(identity, { write: (text) => (output += text), exit: (status) => (code = status) }, tty);
  shell.start();
  return { shell, output: () => output, exitCode: () => code };
}

describe('SimShell', () => {
  it.each([
    ['echo hi', 'hi\n', 0],
    ['echo -n hi', 'hi', 0],
    ['hostname', 'web-1\n', 0],
    ['whoami', 'root\n', 0],
    ['uname -n', 'web-1\n', 0],
    ['frobnicate --now', 'frobnicate: command not found\n', 127],
    ['false || echo fallback', 'fallback\n', 0],
    ['false && echo never', '', 1],
    ['true; echo "two words"', 'two words\n', 0],
    ["sh -c 'echo inner'", 'inner\n', 0],
    ['false; echo $?', '1\n', 0],
    ['show version', 'show: command not found\n', 127],
  ])('runs %j', (line, output, code) => {
    expect(runCommand(line, pod)).toEqual({ output, code });
  });

  it('shows the address of the endpoint in ip addr', () => {
    expect(runCommand(['ip', 'addr'], pod).output).toContain('inet 127.10.0.5/16');
  });

  it('answers show commands and prompts like a device on network images', () => {
    const device = { hostname: 'vqfx1', user: 'antidote', image: 'antidotelabs/vqfx:snap1' };
    expect(runCommand('show version', device).output).toContain('Hostname: vqfx1');
    const { shell, output } = session(true, device);
    shell.input('show version\r');
    expect(output()).toMatch(/^antidote@vqfx1> show version\r\nHostname: vqfx1\r\n.*antidote@vqfx1> $/s);
  });

  it('with a terminal: prompt, echo, backspace, CRLF output, exit status', () => {
    const { shell, output, exitCode } = session(true);
    shell.input('echo hj\x7fi\r');
    expect(output()).toBe('web-1# echo hj\b \bi\r\nhi\r\nweb-1# ');
    shell.input('exit 3\r');
    expect(exitCode()).toBe(3);
    shell.input('echo after\r');
    expect(output()).not.toContain('after\r\n');
  });

  it('ignores arrow keys and clears the line on Ctrl-C; Ctrl-D on an empty line exits', () => {
    const { shell, output, exitCode } = session(true);
    shell.input('ech\x1b[Ao\x03');
    expect(output()).toBe('web-1# echo^C\r\nweb-1# ');
    shell.input('\x04');
    expect(exitCode()).toBe(0);
  });

  it('without a terminal: runs piped lines silently and exits at the end of input', () => {
    const { shell, output, exitCode } = session(false);
    shell.input('echo one\nfalse\n');
    shell.input('echo two');
    expect(exitCode()).toBeUndefined();
    shell.end();
    expect(output()).toBe('one\ntwo\n');
    expect(exitCode()).toBe(0);
  });

  it('splits words with quotes and escapes', () => {
    expect(words(`echo "a b" 'c d' e\\ f`)).toEqual(['echo', 'a b', 'c d', 'e f']);
  });

  it('a booting endpoint answers every command but exit with the booting line, until it has booted', () => {
    let booting = true;
    const vqfx = { hostname: 'vqfx1', user: 'antidote', image: 'antidotelabs/vqfx', booting: () => booting };
    expect(runCommand('show version', vqfx)).toEqual({ output: BOOTING_ANSWER, code: 1 });
    expect(runCommand('echo hi; exit 3', vqfx)).toEqual({ output: BOOTING_ANSWER, code: 3 });
    booting = false;
    expect(runCommand('show version', vqfx)).toMatchObject({ output: expect.stringContaining('Model: kube-sim') as string, code: 0 });
  });
});
