import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The built module (a child process runs JavaScript): `npm test` builds first, else `npx tsc -b tsconfig.build.json`. */
const BUILT = fileURLToPath(new URL('../dist/postgres.process.js', import.meta.url));

/** The postmaster listening on `port`, its pid and folder, read from the command lines in /proc. */
function postmasterOn(port: number): { pid: number; dir: string } | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // ended meanwhile
    }
    if (basename(args[0]) === 'postgres' && args[args.indexOf('-p') + 1] === String(port))
      return { pid: Number(pid), dir: dirname(args[args.indexOf('-D') + 1]) };
  }
  return undefined;
}

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startPostgres (real PostgreSQL)', () => {
  it('a server whose starter is killed (SIGKILL, no exit hook runs) is stopped and its folder removed', async () => {
    const script = `import { startPostgres } from ${JSON.stringify(BUILT)}; const s = await startPostgres(); process.stdout.write(s.port + '\\n'); setInterval(() => undefined, 1 << 30);`;
    const starter = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await Promise.race([once(createInterface({ input: starter.stdout }), 'line'), once(starter, 'exit')])) as [string];
    const postmaster = postmasterOn(Number(line));
    expect(postmaster, `the starter printed ${line}`).toBeDefined();
    expect(existsSync(postmaster!.dir)).toBe(true);
    starter.kill('SIGKILL');
    await expect.poll(() => running(postmaster!.pid)).toBe(false);
    await expect.poll(() => existsSync(postmaster!.dir)).toBe(false);
  });
});
