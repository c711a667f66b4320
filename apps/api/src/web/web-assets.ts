import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, parse } from 'node:path';

/** Browser libraries the pages import, by the name they are served under `/vendor/`: package and file. */
export const VENDOR_FILES: Readonly<Record<string, readonly [string, string]>> = {
  'marked.esm.js': ['marked', 'lib/marked.esm.js'],
  'purify.es.mjs': ['dompurify', 'dist/purify.es.mjs'],
  'xterm.mjs': ['@xterm/xterm', 'lib/xterm.mjs'],
  'xterm.css': ['@xterm/xterm', 'css/xterm.css'],
  'addon-fit.mjs': ['@xterm/addon-fit', 'lib/addon-fit.mjs'],
};

export interface WebAssets {
  /** The folder of index.html, app.css and js/. */
  publicDir: string;
  /** `/vendor/<name>` → the file on disk. */
  vendor: ReadonlyMap<string, string>;
}

/** `node_modules/<pkg>/<file>` in `from` or a folder above it (how Node itself finds packages). */
function findInNodeModules(from: string, pkg: string, file: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', pkg, file);
    if (existsSync(candidate)) return candidate;
    if (dir === parse(dir).root) return undefined;
  }
}

/**
 * Finds the web app: `root` when configured, else the `@antidote/web` package beside the api. Answers
 * why not when it (or one of its browser libraries) is missing, so the api can say so and serve `/exp` alone.
 */
export function locateWebAssets(root: string, here: string): WebAssets | { missing: string } {
  let webDir = root;
  // The packaged api (tools/scripts/bundle-app.mjs) carries the pages in `web/` beside its bundle.
  if (!webDir && existsSync(join(here, 'web', 'public', 'index.html'))) webDir = join(here, 'web');
  if (!webDir) {
    try {
      webDir = dirname(createRequire(join(here, 'noop.js')).resolve('@antidote/web/package.json'));
    } catch {
      return { missing: 'the @antidote/web package is not installed beside the api (set api.web.root)' };
    }
  }
  const publicDir = join(webDir, 'public');
  if (!existsSync(join(publicDir, 'index.html'))) return { missing: `${publicDir}/index.html does not exist` };
  const vendor = new Map<string, string>();
  for (const [name, [pkg, file]] of Object.entries(VENDOR_FILES)) {
    const path = findInNodeModules(webDir, pkg, file) ?? findInNodeModules(here, pkg, file);
    if (!path) return { missing: `${pkg}/${file} was not found in node_modules` };
    vendor.set(name, path);
  }
  return { publicDir, vendor };
}
