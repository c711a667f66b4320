import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { WebAssets } from './web-assets.js';

/** The types the learner's UI is made of; a file of any other kind in its folder is not served. */
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 1024;
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const MAX_DEPTH = 8;

export type Encoding = 'br' | 'gzip';

/** One file of the UI, held in memory with its compressed copies (made on first request, then kept). */
export interface WebFile {
  body: Buffer;
  type: string;
  etag: string;
  compressible: boolean;
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

export interface WebFileSet {
  /** A hash of every file: the path segment of `/assets/<version>/…`, so a changed UI is a new URL. */
  version: string;
  /** `index.html`, `js/main.js`, `vendor/xterm.mjs` … → the file. */
  files: ReadonlyMap<string, WebFile>;
}

/** Brotli's best quality costs 1.5 s on xterm.js (345 KB) for 8 % less than quality 9 (140 ms): large files get 9. */
const brotliQuality = (size: number): number => (size <= 128 * 1024 ? 11 : 9);
const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality(body.length), [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** The file's body in `encoding` (compressed once, in the thread pool), or undefined when not worth it. */
export function encodedBody(file: WebFile, encoding: Encoding): Promise<Buffer> | undefined {
  if (!file.compressible) return undefined;
  return (file.encoded[encoding] ??= compressors[encoding](file.body));
}

const fileOf = (path: string, body: Buffer): WebFile => ({
  body,
  type: TYPES[extname(path)] ?? 'application/octet-stream',
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  compressible: COMPRESSIBLE.test(TYPES[extname(path)] ?? '') && body.length >= MIN_COMPRESS_BYTES,
  encoded: {},
});

/**
 * Every file of `dir` that the UI may serve: known types only, no dot files, and nothing a symlink leads
 * to outside `dir` (its real path is checked; a link inside the folder is served like the file it names).
 */
function walk(root: string, dir: string, depth: number, out: Map<string, Buffer>): void {
  if (depth > MAX_DEPTH) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      continue; // a dangling link
    }
    if (real !== root && !real.startsWith(root + sep)) continue;
    const info = statSync(real);
    if (info.isDirectory()) walk(root, path, depth + 1, out);
    else if (info.isFile() && TYPES[extname(entry.name)] && info.size <= MAX_FILE_BYTES) out.set(relative(root, path).split(sep).join('/'), readFileSync(real));
  }
}

/**
 * Reads the UI once, at start: its folder and the named browser libraries (under `vendor/`). Pages name
 * their files under `/assets/<version>/`, so they can be cached for good and a new UI is never mixed
 * with an old one; `index.html` is rewritten to that prefix.
 */
export function loadWebFiles(assets: WebAssets): WebFileSet {
  const root = realpathSync(assets.publicDir);
  const bodies = new Map<string, Buffer>();
  walk(root, root, 0, bodies);
  for (const [name, path] of assets.vendor) bodies.set(`vendor/${name}`, readFileSync(path));
  const hash = createHash('sha256');
  for (const [path, body] of [...bodies].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(path).update('\0').update(body);
  const version = hash.digest('hex').slice(0, 12);
  const index = bodies.get('index.html');
  if (index) bodies.set('index.html', Buffer.from(index.toString('utf8').replaceAll('"/assets/', `"/assets/${version}/`)));
  return { version, files: new Map([...bodies].map(([path, body]) => [path, fileOf(path, body)])) };
}
