import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { antictlUp } from './support/antictl-up.js';

/** The processes `pid` started, from `ps`. */
const childrenOf = (pid: number): number[] =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);

/** Running (a zombie nobody reaped yet has ended). */
const running = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

it(
  'antictl up killed (SIGKILL, no time to stop anything): nats-server and its watchdog, kube-sim and the four apps end by themselves',
  { timeout: 600_000 },
  async () => {
    const platform = await antictlUp();
    const started = childrenOf(platform.up.pid!);
    const apps = ['api', 'scheduler', 'healthchecker', 'reaper'].map((app) => platform.pidOf(app));
    expect(started).toEqual(expect.arrayContaining(apps));
    // nats-server and its watchdog (which removes nats-server's folder once antictl is gone), kube-sim and the four apps
    expect(started).toHaveLength(7);
    expect(started.every(running)).toBe(true);

    const names = new Map(started.map((pid) => [pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 2).join(' ')]));
    const killedAt = Date.now();
    const ended = new Map<number, number>();
    platform.up.kill('SIGKILL');
    await expect
      .poll(
        () => {
          for (const pid of started) if (!ended.has(pid) && !running(pid)) ended.set(pid, Date.now() - killedAt);
          return started.filter((pid) => !ended.has(pid)).map((pid) => names.get(pid));
        },
        { timeout: 120_000 },
      )
      .toEqual([]);
    console.log(`antictl up killed; what it started ended after (ms):\n${[...ended].map(([pid, ms]) => `  ${ms} ${names.get(pid)}`).join('\n')}`);
  },
);
