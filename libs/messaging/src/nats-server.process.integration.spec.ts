import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startNatsServer (real nats-server)', () => {
  it('a server whose starter exits without stopping it ends with it, not as an orphan', async () => {
    // A process that starts a server and exits at once, as one that dies of an error would. (It writes the
    // pid as a plain string: console.log colours a number when the runner sets FORCE_COLOR.)
    const script = `import { startNatsServer } from '@antidote/messaging/dev'; const s = await startNatsServer(); process.stdout.write(String(s.pid)); process.exit(3);`;
    let output = '';
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, encoding: 'utf8', timeout: 60_000 });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? '');
    }
    const pid = Number(output.trim());
    expect(pid).toBeGreaterThan(0);
    for (let waited = 0; alive(pid) && waited < 30_000; waited += 50) await sleep(50);
    expect(alive(pid)).toBe(false);
  });

  it('a server whose starter is killed (SIGKILL, no exit hook runs) ends, and its folder is removed', async () => {
    const script = `import { startNatsServer } from '@antidote/messaging/dev'; const s = await startNatsServer(); process.stdout.write(s.pid + '\\n'); setInterval(() => undefined, 1 << 30);`;
    const starter = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await Promise.race([once(createInterface({ input: starter.stdout }), 'line'), once(starter, 'exit')])) as [string];
    const pid = Number(line);
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const dir = args[args.indexOf('--ports_file_dir') + 1];
    expect(existsSync(dir), `the server's command line: ${args.join(' ')}`).toBe(true);
    starter.kill('SIGKILL');
    await expect.poll(() => alive(pid)).toBe(false);
    await expect.poll(() => existsSync(dir)).toBe(false);
  });
});
