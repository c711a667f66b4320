import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_CURRICULUM, startApi, type ApiFixture } from '../../test/api-fixture.js';
import { webCsp } from './web-static.js';

const WEB_PUBLIC = join(import.meta.dirname, '..', '..', '..', 'web', 'public');

/** A raw GET (fetch would decompress): status, headers and the bytes as sent. */
async function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: new Headers(response.headers as Record<string, string>), body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe("the learner's web UI served by the api under /", () => {
  let api: ApiFixture;
  let assets: string;
  beforeAll(async () => {
    api = await startApi('sqlite', { liveLessonTTL: 2, api: { rateLimitPerMinute: 0, web: { hiddenGraceSeconds: 7 } } });
    assets = /src="(\/assets\/[0-9a-f]{12}\/)js\/main\.js"/.exec(await (await fetch(`${api.url}/`)).text())![1];
  });
  afterAll(() => api?.stop());

  const get = (path: string, init?: RequestInit) => fetch(`${api.url}${path}`, init);

  it('serves the page at / and at the deep link /labs/?lessonSlug=S&lessonStage=N, with a strict CSP', async () => {
    for (const path of ['/', '/labs/?lessonSlug=linux-basics&lessonStage=1', '/labs']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy')).toBe(webCsp(['https:']));
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain(`<script type="module" src="${assets}js/main.js"></script>`);
    }
    const csp = webCsp(['https:']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/script-src[^;]*(unsafe|https)/);
    // Guides show images and videos from https sites (curricula link them there); never http.
    expect(csp).toContain("img-src 'self' data: https:;");
    expect(csp).toContain("media-src 'self' https:;");
  });

  it('serves its modules and the browser libraries under a versioned prefix, cached for good, and nothing outside its folder', async () => {
    const main = await get(`${assets}js/main.js`);
    expect(main.status).toBe(200);
    expect(main.headers.get('content-type')).toMatch(/javascript/);
    expect(main.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const name of ['marked.esm.js', 'purify.es.mjs', 'xterm.mjs', 'addon-fit.mjs', 'xterm.css'])
      expect((await get(`${assets}vendor/${name}`)).status, name).toBe(200);
    // Another version's URL (a page from before an upgrade) gets today's file, not cached.
    const old = await get('/assets/000000000000/js/main.js');
    expect(old.status).toBe(200);
    expect(old.headers.get('cache-control')).toBe('no-cache');
    for (const path of [
      `${assets}../package.json`,
      `${assets}%2e%2e/package.json`,
      `${assets}..%2fpackage.json`,
      `${assets}vendor/../../package.json`,
      `${assets}vendor/nothing.js`,
      `${assets}js/none.js`,
      '/assets/js/main.js',
      '/vendor/xterm.mjs',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('"@antidote/web"');
    }
  });

  it('sends compressed copies (brotli, else gzip) to clients that take them, the same bytes once decoded; 304 when unchanged', async () => {
    const path = `${api.url}${assets}vendor/xterm.mjs`;
    const plain = await rawGet(path);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const br = await rawGet(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    const gz = await rawGet(path, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    const again = await rawGet(path, { 'if-none-match': plain.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('tells the page its keep-alive timings (a quarter of the idle TTL; the hidden grace) and leaves /exp and POST alone', async () => {
    expect(await (await get('/web/config.json')).json()).toEqual({ keepAliveMs: 30_000, hiddenGraceMs: 7000 });
    const lessons = await get('/exp/lesson');
    expect(lessons.status).toBe(200);
    expect(((await lessons.json()) as { lessons: unknown[] }).lessons.length).toBeGreaterThan(0);
    expect((await fetch(`${api.url}/`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it("serves a lesson's images from its folder in the curriculum, and nothing else from there", async () => {
    const image = await get('/web/lessons/host-networking/files/stage0/images/topology.svg');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    // Opened on its own, an SVG runs no script and loads nothing.
    expect(image.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect(await image.text()).toContain('<svg');
    for (const path of [
      '/web/lessons/host-networking/files/lesson.meta.yaml',
      '/web/lessons/host-networking/files/stage0/guide.md',
      '/web/lessons/host-networking/files/stage0/../../../images/utility/image.meta.yaml',
      '/web/lessons/host-networking/files/stage0/%2e%2e/%2e%2e/x.png',
      '/web/lessons/host-networking/files/.hidden.png',
      '/web/lessons/host-networking/files/stage0/images/none.png',
      '/web/lessons/no-such-lesson/files/stage0/images/topology.svg',
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });
});

describe('web root and lesson files that lead outside their folder', () => {
  let api: ApiFixture;
  let work: string;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'antidote-web-root-'));
    const outside = join(work, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.js'), 'export const secret = "web-root-secret";\n');
    writeFileSync(join(outside, 'secret.png'), 'curriculum-outside-secret');
    // A web root: the real UI, plus a link to a file outside it, a link to a folder outside it, and one inside.
    const root = join(work, 'web');
    cpSync(WEB_PUBLIC, join(root, 'public'), { recursive: true });
    symlinkSync(join(outside, 'secret.js'), join(root, 'public', 'js', 'leak.js'));
    symlinkSync(outside, join(root, 'public', 'elsewhere'));
    symlinkSync(join(root, 'public', 'js', 'api.js'), join(root, 'public', 'js', 'alias.js'));
    // A curriculum whose lesson links an image outside it, and one inside it.
    const curriculum = join(work, 'curriculum');
    cpSync(SAMPLE_CURRICULUM, curriculum, { recursive: true });
    const stage = join(curriculum, 'lessons', 'fundamentals', 'host-networking', 'stage0', 'images');
    symlinkSync(join(outside, 'secret.png'), join(stage, 'leak.png'));
    symlinkSync(join(stage, 'topology.svg'), join(stage, 'alias.svg'));
    api = await startApi('sqlite', { curriculumDir: curriculum, api: { rateLimitPerMinute: 0, web: { root, mediaSources: ['https://cdn.example.org'] } } });
  });
  afterAll(async () => {
    await api?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('serves no file a symlink leads to outside the web root or the curriculum; links inside them work', async () => {
    const page = await fetch(`${api.url}/`);
    const assets = /src="(\/assets\/[0-9a-f]{12}\/)js\/main\.js"/.exec(await page.text())![1];
    for (const path of [`${assets}js/leak.js`, `${assets}elsewhere/secret.js`, '/web/lessons/host-networking/files/stage0/images/leak.png']) {
      const response = await fetch(`${api.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toMatch(/web-root-secret|curriculum-outside-secret/);
    }
    expect((await fetch(`${api.url}${assets}js/alias.js`)).status).toBe(200);
    expect((await fetch(`${api.url}/web/lessons/host-networking/files/stage0/images/alias.svg`)).status).toBe(200);
  });

  it('narrows where images and videos may come from to api.web.mediaSources', async () => {
    const csp = (await fetch(`${api.url}/`)).headers.get('content-security-policy')!;
    expect(csp).toContain("img-src 'self' data: https://cdn.example.org;");
    expect(csp).toContain("media-src 'self' https://cdn.example.org;");
  });
});
