import { describe, expect, it } from 'vitest';
import { IMAGE_FILE, validFiles, withFile, writeCurriculum } from '../test/curriculum-builder.js';
import { readCurriculum } from './index.js';

const trusted = writeCurriculum(withFile(IMAGE_FILE, (image) => (image.flavor = 'trusted')));
const operator = (patterns: string[]) => ({ tier: 'local' as const, trustedImages: { patterns, imageOrg: 'antidotelabs' } });

describe('privileged images are the operator’s call (pods.trustedImages)', () => {
  it('refuses an image asking for flavor trusted that the operator does not allow, naming the image', async () => {
    const result = await readCurriculum(trusted, operator([]));
    expect(result.curriculum).toBeUndefined();
    expect(result.problems).toEqual([
      {
        file: IMAGE_FILE,
        field: 'flavor',
        rule: 'trusted-image',
        message:
          'image "utility" asks for flavor trusted (privileged pods), which the operator has not allowed (pods.trustedImages: none); add "utility" there to allow it, or make the image untrusted',
      },
    ]);
    expect((await readCurriculum(trusted, operator(['vqfx', 'csr*']))).problems[0].message).toMatch(/\(pods\.trustedImages: vqfx, csr\*\)/);
  });

  it('accepts it when allowed by name or glob, and any image that asks for no privilege', async () => {
    for (const patterns of [['utility'], ['util*'], ['antidotelabs/utility']]) expect((await readCurriculum(trusted, operator(patterns))).problems).toEqual([]);
    expect((await readCurriculum(writeCurriculum(validFiles()), operator([]))).problems).toEqual([]);
  });

  it('checks the curriculum alone when no operator allow list is given (a curriculum author’s own validation)', async () => {
    expect((await readCurriculum(trusted, { tier: 'local' })).problems).toEqual([]);
  });
});
