import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT } from '../antictl-up.js';

export const APP_KINDS = ['api', 'scheduler', 'healthchecker', 'reaper'] as const;
export type AppKind = (typeof APP_KINDS)[number];

/** A line an app logged that the chaos account needs (re-drives, reaper leadership), with when it came. */
export interface NotedLine {
  replica: string;
  at: number;
  msg: string;
}

/** What the account notes from the apps' logs. */
const NOTED = /re-drive of live lesson|leads the reapers|stands by|handed .* over after|interrupted, the database away/;
/** Lines kept per replica for a failure message. */
const TAIL_LINES = 60;

/**
 * One replica of a built app (`apps/<app>/dist/main.js`), a process of its own as it is deployed, with
 * its own config file (so a restart is the same replica: same name, same port). `kill()` is kill -9.
 */
export class AppReplica {
  private child?: ChildProcess;
  private exited: Promise<unknown> = Promise.resolve();
  private tail: string[] = [];
  /** Where its HTTP server listens once started (the api's routes, every app's /readyz and /metrics). */
  url = '';
  starts = 0;

  constructor(
    readonly name: string,
    readonly kind: AppKind,
    private readonly configFile: string,
    private readonly noted: NotedLine[],
  ) {}

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process and waits until it logs that it is ready (its bus consumer subscribed, /readyz 200). */
  async start(timeoutMs = 180_000): Promise<void> {
    const main = join(ROOT, 'apps', this.kind, 'dist', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (npx tsc -b tsconfig.build.json)`);
    const child = spawn(process.execPath, [main], {
      env: { PATH: process.env.PATH ?? '', ANTIDOTE_CONFIG: this.configFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.starts++;
    this.exited = new Promise((resolve) => child.once('exit', resolve));
    let ready = false;
    let partial = '';
    const onData = (chunk: Buffer): void => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        this.tail.push(line);
        if (this.tail.length > TAIL_LINES) this.tail.shift();
        const parsed = parseLine(line);
        if (!parsed) continue;
        if (parsed.url && !this.url) this.url = parsed.url.replace('[::1]', '127.0.0.1');
        if (parsed.msg === `${this.kind} ready`) ready = true;
        if (NOTED.test(parsed.msg)) this.noted.push({ replica: this.name, at: Date.now(), msg: parsed.msg });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    const deadline = Date.now() + timeoutMs;
    while (!ready) {
      if (!this.running) throw new Error(`${this.name} exited while starting:\n${this.output()}`);
      if (Date.now() > deadline) throw new Error(`${this.name} not ready after ${timeoutMs} ms:\n${this.output()}`);
      await sleep(100);
    }
  }

  /** kill -9: no shutdown hook runs, nothing is released or drained. */
  async kill(): Promise<void> {
    if (this.running) this.child?.kill('SIGKILL');
    await this.exited;
  }

  /** Ctrl-C as an operator stops it (graceful). */
  async stop(): Promise<void> {
    if (this.running) this.child?.kill('SIGTERM');
    await Promise.race([this.exited, sleep(30_000)]);
    await this.kill();
  }

  output(): string {
    return this.tail.join('\n');
  }
}

function parseLine(line: string): { msg: string; url?: string } | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(line) as { msg?: unknown; url?: unknown };
    return typeof parsed.msg === 'string' ? { msg: parsed.msg, ...(typeof parsed.url === 'string' ? { url: parsed.url } : {}) } : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a replica's config file (the platform's settings, its login, its own overrides) and returns the replica. */
export function replicaOf(name: string, kind: AppKind, config: Record<string, unknown>, noted: NotedLine[]): AppReplica {
  const file = join(mkdtempSync(join(tmpdir(), `chaos-${name}-`)), 'antidote-config.json');
  writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
  return new AppReplica(name, kind, file, noted);
}
