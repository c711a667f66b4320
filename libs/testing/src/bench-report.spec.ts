import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { distribution, writeHistogramSvg } from './bench-report.js';

describe('bench report', () => {
  it('takes nearest-rank percentiles whatever the order of the sample', () => {
    const sample = Array.from({ length: 200 }, (_, i) => 200 - i); // 200 … 1
    expect(distribution(sample)).toEqual({ count: 200, min: 1, p50: 100, p95: 190, p99: 198, max: 200, mean: 100.5 });
    expect(distribution([7])).toMatchObject({ p50: 7, p99: 7 });
    expect(() => distribution([])).toThrow(/empty/);
  });

  it('draws one bar per non-empty bin and a legend per series', () => {
    const path = writeHistogramSvg('bench-report-test', 'test', 'ms', { a: [1, 1, 2, 10], b: [5] }, 10);
    const svg = readFileSync(path, 'utf8');
    expect(svg).toMatch(/^<svg /);
    expect(svg.match(/<rect x=/g)).toHaveLength(20); // 10 bins × 2 series, empty ones have height 0
    expect(svg).toContain('a (n=4)');
    expect(svg).toContain('<title>a: 2</title>');
  });
});
