import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR } from './bench-report.js';

/** A V8 CPU profile (`.cpuprofile`) as the inspector's `Profiler.stop` returns it. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  /** µs on the monotonic clock `process.hrtime` reads, so a window taken in another process applies. */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A frame of the merged call tree: its time with its callees (`micros`) and in itself (`selfMicros`). */
export interface Frame {
  name: string;
  /** The file it runs in, shortened (`typeorm/…`, `libs/data/dist/…`, `node:net`); empty for the engine's frames. */
  file: string;
  micros: number;
  selfMicros: number;
  children: Map<string, Frame>;
}

/** A window of the monotonic clock in µs (`process.hrtime.bigint() / 1000n`), both ends included. */
export interface ClockWindow {
  fromMicros: number;
  toMicros: number;
}

type CallFrame = CpuProfile['nodes'][number]['callFrame'];

const newFrame = (name: string, file: string): Frame => ({ name, file, micros: 0, selfMicros: 0, children: new Map() });

/** A script's URL shortened to its package path (`typeorm/…`, `libs/data/dist/…`, `node:net`). */
const shortFile = (url: string) => url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/((apps|libs|tools)\/)/, '$1');

/** `function file:line`, the file shortened to its package path. */
export function frameName({ functionName, url, lineNumber }: CallFrame): string {
  const file = shortFile(url);
  return file ? `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}` : functionName || '(anonymous)';
}

/**
 * The samples of `window` (the whole profile without one) merged into one call tree rooted at `all`:
 * every stack's frames from the outermost in, each sample counted for the time until the next one.
 * Idle samples are left out; garbage collection and `(program)` stay (the process was busy).
 */
export function callTree(profile: CpuProfile, window: ClockWindow = { fromMicros: -Infinity, toMicros: Infinity }): Frame {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node.id] as const)));
  const paths = new Map<number, CallFrame[]>();
  const pathOf = (id: number): CallFrame[] => {
    const known = paths.get(id);
    if (known) return known;
    const parent = parentOf.get(id);
    const path = parent === undefined ? [] : [...pathOf(parent), byId.get(id)!.callFrame];
    paths.set(id, path);
    return path;
  };
  const root = newFrame('all', '');
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    const micros = profile.timeDeltas[i + 1] ?? 0;
    if (at < window.fromMicros || at > window.toMicros || byId.get(id)?.callFrame.functionName === '(idle)') return;
    let frame = root;
    frame.micros += micros;
    for (const callFrame of pathOf(id)) {
      const name = frameName(callFrame);
      let child = frame.children.get(name);
      if (!child) frame.children.set(name, (child = newFrame(name, shortFile(callFrame.url))));
      child.micros += micros;
      frame = child;
    }
    frame.selfMicros += micros;
  });
  return root;
}

/** Whose code a frame runs: ours, node's, a package's, or the engine's. */
const kindOf = (file: string): 'ours' | 'node' | 'package' | 'engine' => {
  if (/^(apps|libs|tools)\//.test(file)) return 'ours';
  if (file.startsWith('node:')) return 'node';
  return file ? 'package' : 'engine';
};

/** The package of a frame's file (`typeorm`, `@nats-io/nats-core`, `libs/data`, `node:`; `(native)` for none). */
export function packageOf(file: string): string {
  if (!file) return '(native)';
  if (file.startsWith('node:')) return 'node:';
  return /^((apps|libs|tools)\/[^/]+|@[^/]+\/[^/:]+|[^/:]+)/.exec(file)?.[1] ?? file;
}

/** Self time (µs) by package, largest first. */
export function selfByPackage(root: Frame): [string, number][] {
  const totals = new Map<string, number>();
  const visit = (frame: Frame) => {
    const name = packageOf(frame.file);
    if (frame !== root && frame.selfMicros > 0) totals.set(name, (totals.get(name) ?? 0) + frame.selfMicros);
    frame.children.forEach(visit);
  };
  visit(root);
  return [...totals].sort((a, b) => b[1] - a[1]);
}

const HUES = { ours: 210, node: 30, package: 110, engine: 0 } as const;
const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
/** A stable lightness per name, so neighbouring frames of one kind stay apart. */
const shade = (name: string) => 55 + ([...name].reduce((hash, c) => (hash * 31 + c.charCodeAt(0)) >>> 0, 7) % 25);

/**
 * The tree as an SVG flame graph: the outermost frame at the bottom, a frame's width its share of the busy
 * time, its callees stacked on it; colour by kind (blue: ours, orange: node, green: packages, red: the
 * engine, GC included). Frames narrower than `minWidth` pixels are left out; every frame's name, time and
 * share are in its tooltip.
 */
export function flameGraphSvg(root: Frame, title: string, width = 1200, minWidth = 0.3): string {
  const row = 16;
  const rects: string[] = [];
  let depth = 0;
  const place = (frame: Frame, x: number, level: number) => {
    const w = (frame.micros / Math.max(1, root.micros)) * width;
    if (w < minWidth) return;
    depth = Math.max(depth, level);
    const share = ((100 * frame.micros) / Math.max(1, root.micros)).toFixed(1);
    const label = w > 30 ? escapeXml(frame.name.slice(0, Math.floor((w - 4) / 6.5))) : '';
    rects.push(
      `<g transform="translate(${x.toFixed(1)},-${(level + 1) * row})"><title>${escapeXml(frame.name)} — ${(frame.micros / 1000).toFixed(0)} ms (${share} %), self ${(frame.selfMicros / 1000).toFixed(0)} ms</title>` +
        `<rect width="${Math.max(0.1, w - 0.3).toFixed(1)}" height="${row - 1}" fill="hsl(${HUES[kindOf(frame.file)]},70%,${shade(frame.name)}%)"/>` +
        (label ? `<text x="2" y="${row - 4}" font-size="11">${label}</text>` : '') +
        '</g>',
    );
    let childX = x;
    for (const child of [...frame.children.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      place(child, childX, level + 1);
      childX += (child.micros / Math.max(1, root.micros)) * width;
    }
  };
  place(root, 0, 0);
  const height = (depth + 1) * row + 40;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="monospace">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="4" y="18" font-family="sans-serif" font-size="14">${escapeXml(title)}</text>`,
    `<g transform="translate(0,${height})">`,
    ...rects,
    '</g>',
    '</svg>',
  ].join('\n');
}

/** Reads a `.cpuprofile`, writes the flame graph of `window` as `reports/bench/<name>.svg`; returns its path and the tree. */
export function writeFlameGraph(name: string, profileFile: string, title: string, window?: ClockWindow): { path: string; tree: Frame } {
  const tree = callTree(JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile, window);
  mkdirSync(BENCH_DIR, { recursive: true });
  const path = join(BENCH_DIR, `${name}.svg`);
  writeFileSync(path, `${flameGraphSvg(tree, `${title} — ${(tree.micros / 1000).toFixed(0)} ms busy`)}\n`);
  return { path, tree };
}
