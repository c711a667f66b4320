import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { antictlUp, type UpPlatform } from './support/antictl-up.js';
import { CHROMIUM, serveFrontEnd, servePrefixProxy } from './support/front-end.js';
import { labPage, type LabPageReport } from './support/lab-page.js';

const LONG = 300_000;
const SLUG = 'network-automation';

/** What antidote-web must see whoever drives the page: the lesson's prerequisites, its collection, a lab to READY, a stage change. */
function expectTheLabWorked(report: LabPageReport): void {
  expect(report.prereqs).toEqual(['linux-basics']);
  expect(report.lessonPrereqs).toEqual({ prereqs: ['linux-basics'] });
  expect(report.collection.Slug).toBe('getting-started');
  expect(report.collection.Lessons.map((lesson) => lesson.Slug).sort()).toEqual(['host-networking', 'linux-basics', SLUG]);
  expect(report.retriedAfter).toBe('Invalid session ID expiredsession');
  // The polling loop never got an error answer while the lab was provisioned, and ended READY at each stage.
  expect(
    report.polls.every((poll) => /^200 (INITIALIZED|BOOTING|CONFIGURATION|READY) [01]$/.test(poll)),
    report.polls.join('\n'),
  ).toBe(true);
  expect(report.polls).toContain('200 READY 0');
  expect(report.polls.at(-1)).toBe('200 READY 1');
  expect(report.stageChange).toBe(200);
  expect(report.deleted).toBe(200);
}

/**
 * antidote-web against `antictl up` (every app a process): first as a browser's requests sent from this
 * test, then the same lab page in Debian's headless Chromium on another origin, listed in
 * `api.corsOrigins` as an operator would (the browser itself enforces CORS and sends its own
 * preflights), and on the api's own site behind a `/acore` path-prefix proxy, which needs no listing.
 */
describe('the real front-end works unchanged (antidote-web against antictl up)', () => {
  let platform: UpPlatform;
  let frontEnd: Awaited<ReturnType<typeof serveFrontEnd>>;
  let origin: string;

  beforeAll(async () => {
    frontEnd = await serveFrontEnd('127.0.0.2');
    origin = new URL(frontEnd.url).origin;
    platform = await antictlUp({ config: { api: { rateLimitPerMinute: 0, corsOrigins: [origin] } } });
  });
  afterAll(async () => {
    await frontEnd?.stop();
    expect(await platform?.stop()).toBe(0);
  });

  it('answers a preflight from the listed origin as the original did, and refuses any other origin', async () => {
    const preflight = await fetch(`${platform.api}/exp/livelesson`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PUT,DELETE');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type,Accept');
    const simple = await fetch(`${platform.api}/exp/livesession`, { method: 'POST', body: JSON.stringify({}), headers: { origin } });
    expect(simple.headers.get('content-type')).toMatch(/json/);
    expect(simple.headers.get('access-control-allow-origin')).toBe(origin);
    expect(simple.status).toBe(200);
    const other = await fetch(`${platform.api}/exp/livesession`, { method: 'POST', body: JSON.stringify({}), headers: { origin: 'http://127.0.0.4:8080' } });
    expect([other.status, other.headers.get('access-control-allow-origin')]).toEqual([403, null]);
  });

  it('takes the lab page through a lab with text/plain bodies, polling to READY and a stage change', { timeout: LONG }, async () => {
    expectTheLabWorked(await labPage({ api: platform.api, slug: SLUG }));
  });

  describe('in headless Chromium', () => {
    let browser: Browser;
    let proxy: Awaited<ReturnType<typeof servePrefixProxy>>;
    beforeAll(async () => {
      browser = await chromium.launch(CHROMIUM);
      proxy = await servePrefixProxy(platform.api, '127.0.0.3');
    });
    afterAll(async () => {
      await browser?.close();
      await proxy?.stop();
    });

    it('runs the same lab page from another origin listed in api.corsOrigins, the browser enforcing CORS', { timeout: LONG }, async () => {
      const page = await browser.newPage();
      await page.goto(frontEnd.url);
      expect(new URL(page.url()).origin).not.toBe(new URL(platform.api).origin);
      // The stage change (application/json) and the kill (DELETE) are not simple requests: Chromium preflights them itself.
      expectTheLabWorked(await page.evaluate(labPage, { api: platform.api, slug: SLUG }));
      await page.close();
    });

    it("runs it on the api's own site behind a /acore proxy, whatever api.corsOrigins lists", { timeout: LONG }, async () => {
      const page = await browser.newPage();
      await page.goto(proxy.url);
      expect(new URL(page.url()).origin).not.toBe(origin);
      expectTheLabWorked(await page.evaluate(labPage, { api: `${new URL(proxy.url).origin}/acore`, slug: SLUG }));
      await page.close();
    });

    it('cannot read an answer the api does not allow for its origin', async () => {
      const page = await browser.newPage();
      await page.goto(frontEnd.url);
      // Admin routes carry no CORS headers: the browser refuses the page the answer.
      const outcome = await page.evaluate(
        async (api) =>
          fetch(`${api}/exp/admin/livelessons`).then(
            (response) => `read ${response.status}`,
            (error: Error) => `blocked: ${error.name}`,
          ),
        platform.api,
      );
      expect(outcome).toBe('blocked: TypeError');
      await page.close();
    });
  });
});
