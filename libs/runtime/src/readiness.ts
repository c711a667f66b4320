import { setTimeout as sleep } from 'node:timers/promises';

export type ReadinessCheck = () => boolean | Promise<boolean>;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, boolean>;
}

/**
 * What a service needs before it may take work (database, NATS, Kubernetes API…). `/readyz` reports it;
 * the bootstrap waits on it before consuming messages. Kept rather than @nestjs/terminus: the same registry
 * gates start-up, draining and the instance token (docs/architecture.md, "Hand-written on purpose").
 */
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();
  private draining = false;
  private started = false;

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  /** The service consumes its messages now (bus subscribed): until then it is not ready for work. */
  markStarted(): void {
    this.started = true;
  }

  /** Shutting down: report not-ready so load balancers stop sending work. */
  markDraining(): void {
    this.draining = true;
  }

  /** `dependenciesOnly`: the checks alone, for the start-up wait that comes before `markStarted`. */
  async report(timeoutMs = 2000, dependenciesOnly = false): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]): Promise<[string, boolean]> => {
        try {
          const result = await Promise.race([Promise.resolve(check()), sleep(timeoutMs).then(() => false)]);
          return [name, result];
        } catch {
          return [name, false];
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    if (this.draining) checks.draining = false;
    const starting = !this.started && !dependenciesOnly;
    if (starting) checks.started = false;
    return { ready: entries.every(([, ok]) => ok) && !this.draining && !starting, checks };
  }

  /** Resolves when every dependency check passes; `onWait` is told which are still failing, now and then. */
  async waitForDependencies(onWait?: (failing: string[]) => void, intervalMs = 250, signal?: AbortSignal): Promise<void> {
    await this.waitUntil(true, onWait, intervalMs, signal);
  }

  /** Resolves when the service is ready for work: started and every check passing. */
  async waitUntilReady(onWait?: (failing: string[]) => void, intervalMs = 250, signal?: AbortSignal): Promise<void> {
    await this.waitUntil(false, onWait, intervalMs, signal);
  }

  private async waitUntil(
    dependenciesOnly: boolean,
    onWait: ((failing: string[]) => void) | undefined,
    intervalMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    let round = 0;
    for (;;) {
      const report = await this.report(undefined, dependenciesOnly);
      if (report.ready) return;
      if (round++ % 20 === 0) onWait?.(Object.keys(report.checks).filter((name) => !report.checks[name]));
      await sleep(intervalMs, undefined, { signal });
    }
  }
}
