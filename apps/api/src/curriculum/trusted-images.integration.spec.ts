import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_CURRICULUM, startApi, type ApiFixture } from '../../test/api-fixture.js';

/** The sample curriculum with its vqfx image asking to run privileged (`flavor: trusted`). */
function curriculumAskingForPrivilege(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'api-trusted-')), 'curriculum');
  cpSync(SAMPLE_CURRICULUM, dir, { recursive: true });
  const vqfx = join(dir, 'images', 'vqfx', 'image.meta.yaml');
  writeFileSync(vqfx, readFileSync(vqfx, 'utf8').replace(/^flavor: untrusted$/m, 'flavor: trusted'));
  return dir;
}

/** Once the start-up import is over (done or refused), what the database holds. */
async function importedImages(api: ApiFixture) {
  await expect
    .poll(async () => ((await api.call('GET', '/readyz')).body as { checks?: { curriculum?: boolean } }).checks?.curriculum, { timeout: 60_000 })
    .toBe(true);
  return (await api.data.curriculum.listImages()).map((image) => ({ slug: image.slug, flavor: image.flavor }));
}

describe('the api imports privileged images only as the operator allows (pods.trustedImages)', () => {
  let api: ApiFixture | undefined;
  afterEach(async () => {
    await api?.stop();
    api = undefined;
  });

  it('refuses, with the default config, a curriculum that asks to run an image privileged: nothing imported', async () => {
    api = await startApi('sqlite', { curriculumDir: curriculumAskingForPrivilege() });
    expect(await importedImages(api)).toEqual([]);
    expect(await api.data.curriculum.getCurriculum()).toBeNull();
  });

  it('imports it once the operator lists the image', async () => {
    api = await startApi('sqlite', { curriculumDir: curriculumAskingForPrivilege(), pods: { trustedImages: ['vqfx'] } });
    expect(await importedImages(api)).toContainEqual({ slug: 'vqfx', flavor: 'trusted' });
  });
});
