import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** Bytes and objects of one kind in a heap snapshot. */
export interface Tally {
  bytes: number;
  count: number;
}

/** A heap snapshot summed up: its live bytes by what holds them. */
export interface HeapSummary {
  bytes: number;
  /** By constructor (`Map`, `Array`), node type (`(string)`, `(code)`), and plain objects by their first property names. */
  byKind: Map<string, Tally>;
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/**
 * What a process started with `heapProbeArgs` does on SIGUSR2, on its event loop: a full collection
 * (twice: what the first frees may free more), then the live heap's size — and with `snapshot`, a heap
 * snapshot — written to `<dir>/probe-<n>.json`, renamed into place once complete.
 */
const PROBE = `
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from 'node:v8';
let probes = 0;
process.on('SIGUSR2', () => {
  const dir = process.env.HEAP_PROBE_DIR;
  const file = dir + '/probe-' + ++probes;
  const MiB = (bytes) => Math.round(bytes / 104857.6) / 10;
  const before = process.memoryUsage();
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, [MiB(s.space_used_size), MiB(s.physical_space_size)]]));
  globalThis.gc();
  globalThis.gc();
  const snapshot = process.env.HEAP_PROBE_SNAPSHOT === '1' ? writeHeapSnapshot(file + '.heapsnapshot') : undefined;
  const after = process.memoryUsage();
  const resident = { brk: 0, anonymous: 0, files: 0 };
  let kind = 'anonymous';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split(String.fromCharCode(10))) {
    const fields = line.split(' ').filter(Boolean);
    if (/^[0-9a-f]+-[0-9a-f]+$/.test(fields[0] ?? '')) kind = fields[5] === '[heap]' ? 'brk' : fields[5]?.startsWith('/') ? 'files' : 'anonymous';
    else if (fields[0] === 'Rss:') resident[kind] += Number(fields[1]) * 1024;
  }
  const usage = { rss: MiB(before.rss), heapTotal: MiB(before.heapTotal), heapUsed: MiB(before.heapUsed), external: MiB(before.external), heapTotalAfterGc: MiB(after.heapTotal), rssAfterGc: MiB(after.rss), residentAfterGc: Object.fromEntries(Object.entries(resident).map(([k, v]) => [k, MiB(v)])), spacesUsedCommitted: spaces };
  const code = getHeapSpaceStatistics().filter((s) => s.space_name.startsWith('code')).reduce((sum, s) => sum + s.space_used_size, 0);
  writeFileSync(file + '.tmp', JSON.stringify({ used: getHeapStatistics().used_heap_size, code, usage, snapshot }));
  renameSync(file + '.tmp', file + '.json');
});
`;

/** Node's flags and environment for a process `heapOf` can probe: its probes go to `dir`; `snapshot`: each with a heap snapshot. */
export function heapProbeOf(dir: string, snapshot: boolean): { execArgv: string[]; env: Record<string, string> } {
  return {
    execArgv: ['--expose-gc', `--import=data:text/javascript,${encodeURIComponent(PROBE)}`],
    env: { HEAP_PROBE_DIR: dir, HEAP_PROBE_SNAPSHOT: snapshot ? '1' : '0' },
  };
}

/**
 * The live heap of a process started with `heapProbeOf(dir, …)` after a full collection, and, when it
 * was started to take them, its heap snapshot summed up (the file then deleted unless `keep`). A snapshot costs the
 * process tens of MiB of RSS it keeps: its RSS figures are read before.
 */
export async function heapOf(
  pid: number,
  dir: string,
  keep = false,
): Promise<{ bytes: number; codeBytes: number; usage: Record<string, unknown>; summary?: HeapSummary }> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  let probe = '';
  await expect
    .poll(
      () => {
        probe = readdirSync(dir).find((name) => name.endsWith('.json') && !before.has(name)) ?? '';
        return probe;
      },
      { timeout: 300_000, interval: 200 },
    )
    .not.toBe('');
  const { used, code, usage, snapshot } = JSON.parse(readFileSync(join(dir, probe), 'utf8')) as {
    used: number;
    code: number;
    usage: Record<string, unknown>;
    snapshot?: string;
  };
  if (!snapshot) return { bytes: used, codeBytes: code, usage };
  try {
    return { bytes: used, codeBytes: code, usage, summary: summarize(JSON.parse(readFileSync(snapshot, 'utf8')) as Snapshot) };
  } finally {
    if (!keep) rmSync(snapshot, { force: true });
  }
}

function summarize({ snapshot: { meta }, nodes, edges, strings }: Snapshot): HeapSummary {
  const N = meta.node_fields.length;
  const E = meta.edge_fields.length;
  const [type, name, selfSize, edgeCount] = ['type', 'name', 'self_size', 'edge_count'].map((field) => meta.node_fields.indexOf(field));
  const [edgeType, edgeName] = ['type', 'name_or_index'].map((field) => meta.edge_fields.indexOf(field));
  const property = meta.edge_types[0].indexOf('property');
  const byKind = new Map<string, Tally>();
  let bytes = 0;
  let edge = 0;
  for (let n = 0; n < nodes.length; n += N) {
    const nodeType = meta.node_types[0][nodes[n + type]];
    const size = nodes[n + selfSize];
    const edgesOfNode = nodes[n + edgeCount];
    let kind = ['object', 'closure', 'native'].includes(nodeType) ? `${nodeType} ${strings[nodes[n + name]]}` : `(${nodeType})`;
    if (kind === 'object Object') {
      const keys: string[] = [];
      for (let e = edge; e < edge + edgesOfNode * E && keys.length < 5; e += E) if (edges[e + edgeType] === property) keys.push(strings[edges[e + edgeName]]);
      kind = `{${keys.join(',')}}`;
    }
    const tally = byKind.get(kind) ?? { bytes: 0, count: 0 };
    tally.bytes += size;
    tally.count++;
    byKind.set(kind, tally);
    bytes += size;
    edge += edgesOfNode * E;
  }
  return { bytes, byKind };
}

/** What grew most from `before` to `after`, per `per` (e.g. per lesson added): `rows` lines of bytes, count and kind. */
export function growthOf(before: HeapSummary, after: HeapSummary, per: number, rows = 15): string[] {
  const grown = [...after.byKind].map(([kind, tally]) => {
    const was = before.byKind.get(kind) ?? { bytes: 0, count: 0 };
    return { kind, bytes: (tally.bytes - was.bytes) / per, count: (tally.count - was.count) / per };
  });
  return grown
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, rows)
    .map(({ kind, bytes, count }) => `${bytes.toFixed(0).padStart(9)} B ${count.toFixed(1).padStart(7)}  ${kind.slice(0, 100)}`);
}

/** VmRSS and VmHWM (peak since start or since `resetPeakOf`) of a process, in MiB. */
export function residentOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/** CPU time (user + system) a process has used so far, ms (/proc/<pid>/stat, in clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Starts a process's peak RSS (VmHWM) over from its current RSS. */
export function resetPeakOf(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
