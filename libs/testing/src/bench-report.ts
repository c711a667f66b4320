import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

/** Where `npm run bench` leaves its figures: `reports/bench/<name>.json` (and charts beside them). */
export const BENCH_DIR = resolve(import.meta.dirname, '..', '..', '..', 'reports', 'bench');

export interface Distribution {
  count: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentiles of a sample (ms or any unit). */
export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) throw new Error('distribution of an empty sample');
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  return {
    count: sorted.length,
    min: sorted[0],
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: sorted.at(-1)!,
    mean: sorted.reduce((sum, v) => sum + v, 0) / sorted.length,
  };
}

export const machine = () => ({
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
});

/** Writes `<name>.json` with the machine beside the figures; returns its path. */
export function writeBenchReport(name: string, figures: Record<string, unknown>): string {
  mkdirSync(BENCH_DIR, { recursive: true });
  const path = join(BENCH_DIR, `${name}.json`);
  writeFileSync(path, `${JSON.stringify({ name, at: new Date().toISOString(), machine: machine(), ...figures }, null, 2)}\n`);
  return path;
}

/**
 * An SVG histogram of one or more samples (e.g. time-to-READY per scenario), one colour per series, so a
 * distribution's shape and tail are visible without a plotting tool.
 */
export function writeHistogramSvg(name: string, title: string, unit: string, series: Record<string, readonly number[]>, bins = 30): string {
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
  const all = Object.values(series).flat();
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const width = (hi - lo) / bins || 1;
  const counts = Object.fromEntries(
    Object.entries(series).map(([label, values]) => [
      label,
      Array.from({ length: bins }, (_, i) => values.filter((v) => Math.min(bins - 1, Math.floor((v - lo) / width)) === i).length),
    ]),
  );
  const peak = Math.max(1, ...Object.values(counts).flat());
  const [w, h, left, bottom] = [720, 360, 50, 40];
  const x = (i: number) => left + (i / bins) * (w - left - 10);
  const y = (n: number) => h - bottom - (n / peak) * (h - bottom - 40);
  const bars = Object.entries(counts).flatMap(([label, bucket], s) =>
    bucket.map(
      (n, i) =>
        `<rect x="${x(i).toFixed(1)}" y="${y(n).toFixed(1)}" width="${((w - left - 10) / bins - 1).toFixed(1)}" height="${(h - bottom - y(n)).toFixed(1)}" fill="${colours[s % colours.length]}" fill-opacity="0.6"><title>${label}: ${n}</title></rect>`,
    ),
  );
  const legend = Object.keys(series).map(
    (label, s) => `<text x="${w - 220}" y="${40 + 16 * s}" fill="${colours[s % colours.length]}" font-size="12">■ ${label} (n=${series[label].length})</text>`,
  );
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (f) => `<text x="${x(f * bins).toFixed(1)}" y="${h - bottom + 16}" font-size="11" text-anchor="middle">${(lo + f * (hi - lo)).toFixed(0)}</text>`,
  );
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${left}" y="22" font-size="14">${title}</text>`,
    `<line x1="${left}" y1="${h - bottom}" x2="${w - 10}" y2="${h - bottom}" stroke="black"/>`,
    `<line x1="${left}" y1="40" x2="${left}" y2="${h - bottom}" stroke="black"/>`,
    `<text x="${left - 6}" y="44" font-size="11" text-anchor="end">${peak}</text>`,
    `<text x="${(w + left) / 2}" y="${h - 6}" font-size="12" text-anchor="middle">${unit}</text>`,
    ...ticks,
    ...bars,
    ...legend,
    '</svg>',
  ].join('\n');
  mkdirSync(BENCH_DIR, { recursive: true });
  const path = join(BENCH_DIR, `${name}.svg`);
  writeFileSync(path, `${svg}\n`);
  return path;
}

/** The shape of a lesson as the reference §10 cost formula counts it. */
export interface ReferenceLessonShape {
  endpoints: number;
  connections: number;
  /** Endpoints with an http presentation (an ingress each). */
  http: number;
  /** Endpoints with a configuration job. */
  configured: number;
}

/** network-automation: 3 endpoints, 3 links, 3 configured endpoints, readyDelay 1 s. */
export const NETWORK_AUTOMATION: ReferenceLessonShape & { slug: string; readyDelayMs: number } = {
  slug: 'network-automation',
  endpoints: 3,
  connections: 3,
  http: 0,
  configured: 3,
  readyDelayMs: 1000,
};

/**
 * Kubernetes API calls the original makes for one CREATE (reference §10): fixed 5 + C + 2E + H + Ec, plus
 * one GET per pod every 2 s while pods start and one per job every second while jobs run.
 */
export const referenceKubeCalls = (lesson: ReferenceLessonShape, podMs: number, jobMs: number): number =>
  5 +
  lesson.connections +
  2 * lesson.endpoints +
  lesson.http +
  lesson.configured +
  lesson.endpoints * (Math.floor(podMs / 2000) + 1) +
  lesson.configured * (Math.floor(jobMs / 1000) + 1);
