import { writeBenchReport } from '@antidote/testing';
import { expect, it } from 'vitest';
import { locateWebAssets, type WebAssets } from './web-assets.js';
import { encodedBody, loadWebFiles } from './web-files.js';

/** What each page loads: the catalogue its own modules only; the lab page also xterm.js, marked and DOMPurify. */
const CATALOGUE = ['index.html', 'app.css', 'js/main.js', 'js/catalogue.js', 'js/api.js', 'js/dom.js', 'js/session.js'];

/**
 * The learner's UI on the wire: bytes each page loads as stored, brotli and gzip (as the api sends them),
 * and how long the first compression of each file takes (once per process). Figures only.
 */
it('prints the bytes each page of the UI loads, raw and compressed, and the time to compress them', { timeout: 120_000 }, async () => {
  const assets = locateWebAssets('', import.meta.dirname) as WebAssets;
  expect('missing' in assets).toBe(false);
  const web = loadWebFiles(assets);
  const sizes = new Map<string, { raw: number; br: number; gzip: number; ms: number }>();
  for (const [path, file] of web.files) {
    const started = performance.now();
    const [br, gzip] = await Promise.all([encodedBody(file, 'br'), encodedBody(file, 'gzip')]);
    sizes.set(path, { raw: file.body.length, br: br?.length ?? file.body.length, gzip: gzip?.length ?? file.body.length, ms: performance.now() - started });
  }
  const sum = (paths: string[]) =>
    paths.reduce(
      (total, path) => {
        const size = sizes.get(path)!;
        return { raw: total.raw + size.raw, br: total.br + size.br, gzip: total.gzip + size.gzip, ms: total.ms + size.ms };
      },
      { raw: 0, br: 0, gzip: 0, ms: 0 },
    );
  const pages = { catalogue: sum(CATALOGUE), lab: sum([...sizes.keys()].filter((path) => path !== 'js/catalogue.js')) };
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1).padStart(7)} KB`;
  console.log(
    [
      `bench web files: what each page loads (${web.files.size} files, version ${web.version})`,
      `  ${'page'.padEnd(10)} ${'raw'.padStart(10)} ${'brotli'.padStart(10)} ${'gzip'.padStart(10)}  first compression`,
      ...Object.entries(pages).map(([page, total]) => `  ${page.padEnd(10)} ${kb(total.raw)} ${kb(total.br)} ${kb(total.gzip)}  ${total.ms.toFixed(0)} ms`),
      `  xterm.mjs  ${kb(sizes.get('vendor/xterm.mjs')!.raw)} ${kb(sizes.get('vendor/xterm.mjs')!.br)} ${kb(sizes.get('vendor/xterm.mjs')!.gzip)}  ${sizes.get('vendor/xterm.mjs')!.ms.toFixed(0)} ms`,
    ].join('\n'),
  );
  console.log(`  figures: ${writeBenchReport('web-files', { version: web.version, pages, files: Object.fromEntries(sizes) })}`);
});
