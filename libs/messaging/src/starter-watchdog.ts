import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';

/**
 * The watchdog's program (plain JavaScript for `node -e`: it runs the same from source and from a build).
 * It reads its stdin, a pipe from the starter, until it closes — the starter ended, however it ended:
 * stopped, exited, killed. Then it sends `signal` to every process of `programs` whose command line names
 * `dir` (the server, and whatever was still starting it), again until none is left (SIGKILL after 30 s),
 * and removes `dir`.
 */
const PROGRAM = `
const { readdirSync, readFileSync, rmSync } = require('node:fs');
const { dir, signal, programs } = JSON.parse(process.argv[1]);
const names = (args) => programs.includes(args[0].split('/').pop()) && args.some((arg) => arg.includes(dir));
const named = () => readdirSync('/proc').filter((pid) => /^[0-9]+$/.test(pid)).filter((pid) => {
  try { return names(readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0')); } catch { return false; }
});
const send = (pid, name) => { try { process.kill(Number(pid), name); } catch {} };
let ended = false;
const end = () => {
  if (ended) return;
  ended = true;
  const until = Date.now() + 30000;
  const round = () => {
    const left = named();
    if (left.length === 0) {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }
    for (const pid of left) send(pid, Date.now() < until ? signal : 'SIGKILL');
    setTimeout(round, 50);
  };
  round();
};
process.stdin.on('end', end).on('close', end).on('error', end).resume();
`;

/** A watchdog started by `watchStarter`: `release()` once the server is stopped and `dir` removed. */
export interface StarterWatchdog {
  /** Ends the watchdog (it finds nothing left to stop). Idempotent. */
  release(): void;
}

/**
 * Stops a server when the process that started it ends without stopping it — killed (SIGKILL, a test
 * runner ending its worker), or exited past its `exit` hooks: a detached `node` child holding a pipe from
 * this process; when the pipe closes it sends `signal` to every process running one of `programs` (by
 * file name) whose command line names `dir`, then removes `dir`. Start it before the server, so that no
 * moment leaves the server unwatched. Linux (it reads /proc); elsewhere the servers' own exit hooks are
 * all there is.
 */
export function watchStarter(dir: string, signal: NodeJS.Signals, programs: readonly string[]): StarterWatchdog {
  const child = spawn(process.execPath, ['-e', PROGRAM, JSON.stringify({ dir, signal, programs })], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: {},
  });
  child.on('error', () => undefined);
  const pipe = child.stdin as Writable & { unref?: () => void };
  pipe.on('error', () => undefined);
  // Neither the watchdog nor its pipe keeps this process alive.
  pipe.unref?.();
  child.unref();
  return { release: () => void pipe.end() };
}
