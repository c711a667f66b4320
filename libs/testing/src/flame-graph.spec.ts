import { Session } from 'node:inspector/promises';
import { describe, expect, it } from 'vitest';
import { callTree, flameGraphSvg, frameName, packageOf, selfByPackage, type CpuProfile, type Frame } from './flame-graph.js';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

/**
 * (root) ─┬─ (idle)
 *         ├─ (garbage collector)
 *         └─ handle apps/api/main.js:10 ─┬─ query typeorm/runner.js:5
 *                                        └─ write node:net:100
 * Samples (each lasting until the next; the last one nothing): idle, handle, query, query, write, gc, query.
 */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 4] },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('(garbage collector)') },
    { id: 4, callFrame: frame('handle', 'file:///work/x/apps/api/dist/main.js', 9), children: [5, 6] },
    { id: 5, callFrame: frame('query', 'file:///work/x/node_modules/typeorm/runner.js', 4) },
    { id: 6, callFrame: frame('write', 'node:net', 99) },
  ],
  startTime: 1_000,
  endTime: 2_000,
  samples: [2, 4, 5, 5, 6, 3, 5],
  timeDeltas: [0, 100, 10, 20, 30, 40, 50],
};
const HANDLE = 'handle apps/api/dist/main.js:10';
const QUERY = 'query typeorm/runner.js:5';
const WRITE = 'write node:net:100';

/** The tree as `name: micros/self` lines, depth first, children by name. */
const flat = (frame: Frame, depth = 0): string[] => [
  `${'  '.repeat(depth)}${frame.name}: ${frame.micros}/${frame.selfMicros}`,
  ...[...frame.children.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).flatMap((child) => flat(child, depth + 1)),
];

describe('callTree', () => {
  it.each([
    {
      window: undefined,
      why: 'the whole profile: idle left out, each sample lasting until the next',
      tree: ['all: 150/0', '  (garbage collector): 50/50', `  ${HANDLE}: 100/10`, `    ${QUERY}: 50/50`, `    ${WRITE}: 40/40`],
    },
    {
      window: { fromMicros: 1_110, toMicros: 1_160 },
      why: 'samples at 1110, 1130, 1160 only (both ends included)',
      tree: ['all: 90/0', `  ${HANDLE}: 90/0`, `    ${QUERY}: 50/50`, `    ${WRITE}: 40/40`],
    },
    { window: { fromMicros: 5_000, toMicros: 6_000 }, why: 'a window after the profile', tree: ['all: 0/0'] },
  ])('$why', ({ window, tree }) => {
    expect(flat(callTree(PROFILE, window))).toEqual(tree);
  });
});

describe('names and packages', () => {
  it.each([
    [frame('query', 'file:///a/b/node_modules/typeorm/driver/q.js', 75), 'query typeorm/driver/q.js:76', 'typeorm'],
    [frame('decode', 'file:///a/node_modules/@nats-io/nats-core/lib/h.js', 1), 'decode @nats-io/nats-core/lib/h.js:2', '@nats-io/nats-core'],
    [frame('', 'file:///work/main/libs/data/dist/sql.js', 20), '(anonymous) libs/data/dist/sql.js:21', 'libs/data'],
    [frame('connect', 'node:net', 1037), 'connect node:net:1038', 'node:'],
    [frame('(garbage collector)'), '(garbage collector)', '(native)'],
  ])('%o is "%s" of %s', (callFrame, name, pkg) => {
    expect(frameName(callFrame)).toBe(name);
    const only = [
      ...callTree({
        nodes: [
          { id: 1, callFrame: frame('(root)'), children: [2] },
          { id: 2, callFrame },
        ],
        startTime: 0,
        endTime: 1,
        samples: [2, 2],
        timeDeltas: [0, 1],
      }).children.values(),
    ][0];
    expect([only.name, packageOf(only.file)]).toEqual([name, pkg]);
  });

  it('self time by package, largest first', () => {
    expect(selfByPackage(callTree(PROFILE))).toEqual([
      ['typeorm', 50],
      ['(native)', 50],
      ['node:', 40],
      ['apps/api', 10],
    ]);
  });
});

describe('flameGraphSvg', () => {
  const svg = flameGraphSvg(callTree(PROFILE), 'api <burst>', 1000, 100);

  it('draws each frame wider than the least width, its width its share, callees on top, names escaped', () => {
    expect(svg).toContain('&lt;burst&gt;');
    expect(svg).not.toContain('<burst>');
    const titles = [...svg.matchAll(/<title>([^<]*)<\/title><rect width="([\d.]+)"/g)].map(([, title, width]) => [title.split(' — ')[0], Number(width)]);
    // 150 µs busy on 1000 px: all 1000, handle 667, query 333, gc 333, write 267.
    expect(titles).toEqual([
      ['all', 999.7],
      ['(garbage collector)', 333],
      [HANDLE, 666.4],
      [QUERY, 333],
      [WRITE, 266.4],
    ]);
    expect(svg).toMatch(/translate\(333\.3,-48\)"><title>query/); // handle starts after gc, query on handle
  });

  it('leaves out frames narrower than the least width', () => {
    expect(flameGraphSvg(callTree(PROFILE), 'api', 1000, 300)).not.toContain(WRITE);
  });
});

describe('a real profile', () => {
  it('the function that spun the CPU holds most of the busy time of its window', async () => {
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const from = Number(process.hrtime.bigint() / 1000n);
    const spinUntil = (until: number) => {
      let n = 0;
      while (Number(process.hrtime.bigint() / 1000n) < until) n++;
      return n;
    };
    spinUntil(from + 200_000);
    const to = Number(process.hrtime.bigint() / 1000n);
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const tree = callTree(profile as CpuProfile, { fromMicros: from, toMicros: to });
    const spun = (frame: Frame): number =>
      frame.name.startsWith('spinUntil ') ? frame.micros : [...frame.children.values()].reduce((sum, child) => sum + spun(child), 0);
    expect(tree.micros).toBeGreaterThan(0);
    expect(spun(tree) / tree.micros).toBeGreaterThan(0.5);
  });
});
