import { createRequire } from 'node:module';

interface StatementTiming {
  sql: string;
  ms: number;
}

/**
 * Times every synchronous better-sqlite3 call of this process (a statement's run, get, all): each one
 * blocks the event loop for as long as it takes, a wait for another connection's write lock included.
 * `stop()` puts the driver back and answers the count, the total, and the slowest calls.
 */
export function timeSqlite(): { stop(): { count: number; totalMs: number; over100Ms: number; slowest: StatementTiming[] } } {
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => { prepare(sql: string): object; close(): void };
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  const originals = { run: prototype.run, get: prototype.get, all: prototype.all };
  const timings: StatementTiming[] = [];
  for (const [name, original] of Object.entries(originals)) {
    prototype[name] = function (this: { source: string }, ...args: unknown[]) {
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        timings.push({ sql: this.source, ms: performance.now() - started });
      }
    };
  }
  return {
    stop() {
      Object.assign(prototype, originals);
      const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5);
      return {
        count: timings.length,
        totalMs: timings.reduce((sum, timing) => sum + timing.ms, 0),
        over100Ms: timings.filter((timing) => timing.ms > 100).length,
        slowest: slowest.map((timing) => ({ sql: timing.sql.replace(/\s+/g, ' ').slice(0, 90), ms: Math.round(timing.ms) })),
      };
    },
  };
}
