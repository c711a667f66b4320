import { describe, expect, it } from 'vitest';
import { appRuntimeEnv } from './app-runtime.js';

describe('appRuntimeEnv', () => {
  it('gives every app the memory defaults', () => {
    expect(appRuntimeEnv({})).toEqual({ NODE_OPTIONS: '--max-semi-space-size=2', MALLOC_ARENA_MAX: '1' });
  });

  it('keeps the operator’s own settings, which win', () => {
    expect(appRuntimeEnv({ NODE_OPTIONS: '--max-semi-space-size=16 --import ./x.mjs', MALLOC_ARENA_MAX: '8' })).toEqual({
      NODE_OPTIONS: '--max-semi-space-size=2 --max-semi-space-size=16 --import ./x.mjs',
      MALLOC_ARENA_MAX: '8',
    });
  });
});
