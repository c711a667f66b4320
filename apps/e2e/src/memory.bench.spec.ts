import { execFileSync } from 'node:child_process';
import { writeBenchReport } from '@antidote/testing';
import { expect, it } from 'vitest';
import { ROOT } from './support/antictl-up.js';

/** What an app's dependencies cost in memory just by being loaded, and which app loads which. */
const PACKAGES: Record<string, readonly string[]> = {
  '@kubernetes/client-node': ['scheduler', 'reaper'],
  typeorm: ['api', 'scheduler', 'healthchecker', 'reaper'],
  '@nestjs/core': ['api', 'scheduler', 'healthchecker', 'reaper'],
  '@nestjs/microservices': ['api', 'scheduler', 'healthchecker', 'reaper'],
  zod: ['api', 'scheduler', 'healthchecker', 'reaper'],
  express: ['api', 'scheduler', 'healthchecker', 'reaper'],
  '@opentelemetry/sdk-trace-base': ['every app, only with tracing on'],
  '@nats-io/transport-node': ['api', 'scheduler', 'healthchecker', 'reaper'],
  'better-sqlite3': ['api', 'scheduler', 'healthchecker', 'reaper'],
  ssh2: ['api (on the first terminal)', 'healthchecker (on the first SSH probe)'],
};

interface Cost {
  rssMiB: number;
  heapUsedMiB: number;
}

/** A fresh node process's RSS and live heap (after a full GC) before and after importing `name` alone. */
function loadCost(name: string): Cost {
  const script = `
    const read = () => { globalThis.gc(); const m = process.memoryUsage(); return { rss: m.rss, heap: m.heapUsed }; };
    const before = read();
    await import(${JSON.stringify(name)});
    const after = read();
    console.log(JSON.stringify({ rssMiB: (after.rss - before.rss) / 1048576, heapUsedMiB: (after.heap - before.heap) / 1048576 }));`;
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as Cost;
}

/**
 * Why an app's idle RSS is what it is: the resident memory each dependency adds by being imported into an
 * empty node process (medians of 3), beside a bare node process. Figures only.
 */
it('prints the memory each dependency costs by being loaded', { timeout: 600_000 }, () => {
  const bare = JSON.parse(
    execFileSync(process.execPath, ['-e', 'console.log(JSON.stringify({ rssMiB: process.memoryUsage().rss / 1048576 }))'], { encoding: 'utf8' }),
  ) as { rssMiB: number };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const costs = Object.fromEntries(
    Object.keys(PACKAGES).map((name) => {
      const runs = [loadCost(name), loadCost(name), loadCost(name)];
      return [name, { rssMiB: median(runs.map((run) => run.rssMiB)), heapUsedMiB: median(runs.map((run) => run.heapUsedMiB)), loadedBy: PACKAGES[name] }];
    }),
  );
  for (const cost of Object.values(costs)) expect(Number.isFinite(cost.rssMiB)).toBe(true);
  console.log(
    [
      `bench memory: what loading one dependency adds to an empty node process (bare node: RSS ${bare.rssMiB.toFixed(0)} MiB); medians of 3`,
      `  ${'package'.padEnd(32)} ${'+RSS MiB'.padStart(9)} ${'+heap MiB'.padStart(10)}  loaded by`,
      ...Object.entries(costs).map(
        ([name, cost]) => `  ${name.padEnd(32)} ${cost.rssMiB.toFixed(1).padStart(9)} ${cost.heapUsedMiB.toFixed(1).padStart(10)}  ${cost.loadedBy.join(', ')}`,
      ),
    ].join('\n'),
  );
  console.log(`  figures: ${writeBenchReport('memory-by-dependency', { bareNodeRssMiB: bare.rssMiB, costs })}`);
});
