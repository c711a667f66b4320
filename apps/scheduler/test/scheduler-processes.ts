import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

export const SCHEDULER_MAIN = join(import.meta.dirname, '..', 'dist', 'main.js');

export interface SchedulerProcess {
  child: ChildProcess;
  exited: Promise<unknown>;
  output: string;
}

/** How a process is started beyond its config: node's flags and environment variables (e.g. `NODE_OPTIONS`). */
export interface ProcessOptions {
  execArgv?: string[];
  env?: Record<string, string>;
}

/**
 * The built scheduler (apps/scheduler/dist/main.js) as a process of its own — the way it is deployed —
 * on the platform's nats-server, kube-sim and database. Its output is kept for the failure message.
 */
export class SchedulerProcesses {
  private readonly all: SchedulerProcess[] = [];
  private output = '';

  constructor(
    private readonly config: Record<string, unknown>,
    private readonly options: ProcessOptions = {},
  ) {
    if (!existsSync(SCHEDULER_MAIN)) throw new Error(`${SCHEDULER_MAIN} is missing: build first (npx tsc -b tsconfig.build.json)`);
  }

  /** Starts one; `scheduler` settings on top of the platform's (a replica name, a lease). */
  async start(scheduler: Record<string, unknown> = {}): Promise<SchedulerProcess> {
    const configFile = join(mkdtempSync(join(tmpdir(), 'scheduler-process-')), 'antidote-config.json');
    writeFileSync(
      configFile,
      JSON.stringify({ ...this.config, scheduler: { ...(this.config.scheduler as object), ...scheduler }, logging: { level: 'info' } }),
    );
    const env = { PATH: process.env.PATH ?? '', ANTIDOTE_CONFIG: configFile, ...this.options.env };
    const child = spawn(process.execPath, [...(this.options.execArgv ?? []), SCHEDULER_MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const started: SchedulerProcess = { child, exited: new Promise((resolve) => child.once('exit', resolve)), output: '' };
    this.all.push(started);
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        started.output += chunk.toString();
        this.output += `[pid ${child.pid}] ${chunk.toString()}`;
      });
    }
    // "ready" is logged once the bus consumer is subscribed, when /readyz turns 200.
    await expect
      .poll(
        () => {
          if (child.exitCode !== null) throw new Error(`the scheduler exited (${child.exitCode}):\n${started.output}`);
          return /scheduler ready/.test(started.output);
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(true);
    return started;
  }

  async kill(running: SchedulerProcess, signal: NodeJS.Signals): Promise<void> {
    if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill(signal);
    await running.exited;
  }

  /** Every process still alive is killed, whatever happened in the test. */
  async killAll(): Promise<void> {
    for (const running of this.all) await this.kill(running, 'SIGKILL');
  }

  get log(): string {
    return this.output;
  }
}
