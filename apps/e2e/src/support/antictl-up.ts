import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { BusIdentity } from '@antidote/contracts';
import { KubeApi } from '@antidote/kube-sim';

export const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
export const ANTICTL_BIN = join(ROOT, 'tools', 'antictl', 'bin', 'antictl.js');
/** How the tests' own Kubernetes calls name themselves in kube-sim's request log. */
export const E2E_USER_AGENT = 'antidote-e2e';

export interface UpOptions {
  /** Written as the `--config` file antictl up starts from (database, TTLs, limits…). */
  config?: Record<string, unknown>;
  /** Extra `antictl up` flags, e.g. `--restart`. */
  flags?: string[];
  /** Environment for antictl up and the apps it starts, on top of this process's (e.g. `NODE_OPTIONS`). */
  env?: Record<string, string>;
  /** Runs on the state folder's path before `antictl up` starts (e.g. to leave files as an earlier run would). */
  prepare?: (dir: string) => void;
  /** Upper bound for start-up (default 420 s, within the hook timeout of vitest.shared.ts: on a loaded CI machine the four apps can take minutes to start one after another). */
  startTimeoutMs?: number;
}

export type UpPlatform = Awaited<ReturnType<typeof antictlUp>>;

/**
 * `antictl up` as a user runs it: nats-server, kube-sim and the four built apps, each a process of its
 * own. Resolves once it prints "Antidote is up", with the addresses and app pids it printed.
 */
export async function antictlUp(options: UpOptions = {}) {
  // A folder of its own with the platform's state in `.antidote/`, as `npm start` leaves it in a checkout:
  // antictl run from `home` finds this platform with no flags.
  const home = mkdtempSync(join(tmpdir(), 'antidote-e2e-'));
  const dir = join(home, '.antidote');
  options.prepare?.(dir);
  const args = [ANTICTL_BIN, 'up', '--dir', dir, '--api-port', '0', ...(options.flags ?? [])];
  if (options.config) {
    writeFileSync(join(home, 'base-config.yml'), stringify(options.config));
    args.push('--config', join(home, 'base-config.yml'));
  }
  // With an IPC channel: should the test process be killed, antictl up sees it close and stops the platform.
  const up: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...process.env, ...options.env } });
  up.channel?.unref();
  let output = '';
  up.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  up.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  /** Waits until antictl up has printed a line matching `pattern` (after `from` characters of output). */
  const waitForOutput = async (pattern: RegExp, timeoutMs = 90_000, from = 0): Promise<RegExpExecArray> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(output.slice(from));
      if (match) return match;
      if (up.exitCode !== null || Date.now() > until) throw new Error(`antictl up never printed ${String(pattern)}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  /** Ctrl-C, as a user stops it; resolves with antictl's exit code. */
  const stop = async (): Promise<number | null> => {
    if (up.exitCode !== null) return up.exitCode;
    const exited = new Promise<number | null>((resolve) => up.once('exit', resolve));
    up.kill('SIGINT');
    return exited;
  };

  // Should the test process end first (a hook timed out, say), the platform ends with it.
  const orphaned = (): boolean => up.exitCode === null && up.kill('SIGINT');
  process.once('exit', orphaned);
  up.once('exit', () => process.off('exit', orphaned));

  try {
    await waitForOutput(/Antidote is up/, options.startTimeoutMs ?? 420_000);
  } catch (error) {
    await stop(); // a platform that did not come up in time is not left running
    throw error;
  }
  const api = /Antidote is up: (http:\/\/\S+)\/exp\/lesson/.exec(output)![1];
  const nats = /nats-server\s+(\S+)/.exec(output)![1];
  // kube-sim answers only its admin token, over TLS with its own certificate: both in the kubeconfig it wrote.
  if (!/kube-sim\s+https:\/\/\S+/.test(output)) throw new Error(`antictl up printed no kube-sim address:\n${output}`);
  const kubeSim = KubeApi.fromFile(join(dir, 'kubeconfig'), E2E_USER_AGENT);

  /** The NATS logins antictl up generated (the server admits nothing else). */
  const credentials = JSON.parse(readFileSync(join(dir, 'nats-credentials.json'), 'utf8')) as Record<BusIdentity, { user: string; password: string }>;

  return {
    up,
    home,
    dir,
    credentials,
    api,
    nats,
    kubeSim,
    output: () => output,
    waitForOutput,
    /** The pid of an app's current process, as antictl up printed it when it started (or restarted) it. */
    pidOf: (app: string): number => {
      const pids = [...output.matchAll(new RegExp(`^${app}\\s+(?:ready \\(ops \\S+, |exited \\(\\w+\\); restarted \\()pid (\\d+)\\)$`, 'gm'))];
      if (pids.length === 0) throw new Error(`antictl up printed no pid for ${app}:\n${output}`);
      return Number(pids.at(-1)![1]);
    },
    /** The ops address (`/healthz`, `/metrics`) of an app's current process, as antictl up printed it. */
    opsOf: (app: string): string => {
      const ops = [...output.matchAll(new RegExp(`^${app}\\s+ready \\(ops (\\S+), pid \\d+\\)$`, 'gm'))];
      if (ops.length === 0) throw new Error(`antictl up printed no ops address for ${app}:\n${output}`);
      return ops.at(-1)![1];
    },
    stop,
  };
}

/** One `antictl` command (the built one), with its exit code and output. */
export const runAntictl = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [ANTICTL_BIN, ...args], { timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
