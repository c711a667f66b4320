import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './index.js';

const minimal = { instanceId: 'antidote', curriculumDir: '/curriculum' };

function problemsOf(raw: Record<string, unknown>): string[] {
  try {
    parseConfig(raw, { env: {} });
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('warmPools', () => {
  it('is empty by default: no pools, nothing changes for existing configs', () => {
    expect(parseConfig(minimal, { env: {} }).config.warmPools).toEqual({});
  });

  it('reads size and maxAge per lesson slug; maxAge defaults to an hour', () => {
    const { config } = parseConfig({ ...minimal, warmPools: { 'network-automation': { size: 2, maxAge: 600 }, 'bgp-basics': { size: 1 } } }, { env: {} });
    expect(config.warmPools).toEqual({ 'network-automation': { size: 2, maxAge: 600 }, 'bgp-basics': { size: 1, maxAge: 3600 } });
  });

  it.each([
    ['a slug that is no lesson slug', { 'Bad_Slug': { size: 1 } }, 'warmPools'],
    ['a negative size', { lesson: { size: -1 } }, 'warmPools.lesson.size'],
    ['a fractional size', { lesson: { size: 1.5 } }, 'warmPools.lesson.size'],
    ['a negative maxAge', { lesson: { size: 1, maxAge: -5 } }, 'warmPools.lesson.maxAge'],
    ['an unknown key', { lesson: { size: 1, ttl: 5 } }, 'warmPools.lesson'],
  ])('refuses %s', (_name, warmPools, path) => {
    expect(problemsOf({ ...minimal, warmPools }).join('\n')).toContain(path);
  });
});
