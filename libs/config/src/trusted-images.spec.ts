import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.loader.js';
import { isTrustedImage, trustedImagesOf } from './trusted-images.js';

describe('pods.trustedImages', () => {
  it('allows no image by default', () => {
    const { config } = parseConfig({ instanceId: 'x', curriculumDir: '/c' }, { env: {} });
    expect(config.pods.trustedImages).toEqual([]);
    expect(isTrustedImage(trustedImagesOf(config), 'vqfx')).toBe(false);
  });

  it.each([
    [['vqfx'], 'vqfx', true],
    [['vqfx'], 'vqfx2', false],
    [['vqfx'], 'my-vqfx', false],
    [['vqfx*'], 'vqfx-19', true],
    [['v?fx'], 'vqfx', true],
    [['antidotelabs/vqfx'], 'vqfx', true],
    [['antidotelabs/*'], 'anything', true],
    [['otherorg/*'], 'vqfx', false],
    [['*'], 'utility', true],
    [['cumulus.vx'], 'cumulusxvx', false],
    [['(a|b)'], 'a', false],
  ] as const)('%j allows %s: %s', (patterns, slug, allowed) => {
    expect(isTrustedImage({ patterns, imageOrg: 'antidotelabs' }, slug)).toBe(allowed);
  });
});
