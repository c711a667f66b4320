import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../../test/api-fixture.js';
import { WEB_CSP } from './web-static.js';

describe("the learner's web UI served by the api under /", () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi('sqlite', { liveLessonTTL: 2, api: { rateLimitPerMinute: 0, web: { hiddenGraceSeconds: 7 } } });
  });
  afterAll(() => api?.stop());

  const get = (path: string) => fetch(`${api.url}${path}`);

  it('serves the page at / and at the deep link /labs/?lessonSlug=S&lessonStage=N, with a strict CSP', async () => {
    for (const path of ['/', '/labs/?lessonSlug=linux-basics&lessonStage=1', '/labs']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy')).toBe(WEB_CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('<script type="module" src="/assets/js/main.js"></script>');
    }
    expect(WEB_CSP).toContain("script-src 'self'");
    expect(WEB_CSP).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('serves its modules and the browser libraries from node_modules, and nothing outside its folder', async () => {
    const main = await get('/assets/js/main.js');
    expect(main.status).toBe(200);
    expect(main.headers.get('content-type')).toMatch(/javascript/);
    for (const name of ['marked.esm.js', 'purify.es.mjs', 'xterm.mjs', 'addon-fit.mjs', 'xterm.css']) expect((await get(`/vendor/${name}`)).status, name).toBe(200);
    for (const path of ['/assets/../package.json', '/assets/%2e%2e/package.json', '/assets/..%2fpackage.json', '/vendor/../../package.json', '/vendor/nothing.js', '/assets/js/none.js']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('"@antidote/web"');
    }
  });

  it('tells the page its keep-alive timings (a quarter of the idle TTL; the hidden grace) and leaves /exp and POST alone', async () => {
    expect(await (await get('/web/config.json')).json()).toEqual({ keepAliveMs: 30_000, hiddenGraceMs: 7000 });
    const lessons = await get('/exp/lesson');
    expect(lessons.status).toBe(200);
    expect(((await lessons.json()) as { lessons: unknown[] }).lessons.length).toBeGreaterThan(0);
    expect((await fetch(`${api.url}/`, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});
