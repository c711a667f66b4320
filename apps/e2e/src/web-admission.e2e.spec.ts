import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { antictlUp, ROOT, type UpPlatform } from './support/antictl-up.js';
import { expClient } from './support/exp-client.js';
import { recordPages, type PageLog } from './support/lab-browser.js';
import { launchChromium, type ScreenOptions } from './support/web-browser.js';

const LONG = 300_000;
/** Ceiling of a locator wait: they end as soon as the condition holds. */
const WAIT = { timeout: 120_000 };
const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');
const WIDE: ScreenOptions = { viewport: { width: 1280, height: 800 } };
const PHONE: ScreenOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
/** Three labs of capacity: a fourth request waits in line, two at most. Three labs per session (the default). */
const platformConfig = { instanceId: 'antidote-admission-web', api: { rateLimitPerMinute: 0 }, scheduler: { maxLiveLessons: 3, maxQueued: 2 } };

/** Every place in line the page showed, in order (recorded in the page as the waiting room changes). */
const RECORD_PLACES = `window.__places = [];
new MutationObserver((records) => {
  for (const record of records) if (record.target.classList?.contains('waiting-room')) window.__places.push(Number(record.target.dataset.position));
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-position'] });`;

const stored = (page: Page, key: string) => page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(key)})`);
const labOf = (page: Page, slug: string) => stored(page, `antidote.lab.${slug}`);
const widthOf = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth');
/** The places shown, each change once. */
const placesShown = async (page: Page): Promise<number[]> =>
  (await page.evaluate<number[]>('window.__places')).filter((place, i, all) => i === 0 || place !== all[i - 1]);

/**
 * The waiting room, "my labs" and the lab limit in the learner's web app, in Debian's headless Chromium
 * against `antictl up` (every app a process, kube-sim) with `scheduler.maxLiveLessons: 3`.
 */
describe("admission in the learner's web app: the waiting room, my labs, the labs-per-session offer (antictl up, headless Chromium)", () => {
  let platform: UpPlatform;
  let browser: { context: BrowserContext; close(): Promise<void> } | undefined;
  let log: PageLog;
  /** The test's page (its session's labs are ended after it). */
  let current: Page | undefined;
  /** Labs made through the API by the tests (a learner elsewhere): ended after each test. */
  const made: { exp: ReturnType<typeof expClient>; id: string; sessionId: string }[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    platform = await antictlUp({ config: platformConfig });
  }, LONG);
  afterEach(async () => {
    // The page's labs and the API's end, and the next test starts with the capacity free.
    const sessionId = current ? await stored(current, 'antidote.sessionId').catch(() => null) : null;
    const exp = expClient(platform.api, '10.9.3.9');
    if (sessionId)
      for (const lab of (await exp.get<{ LiveLessons: { ID: string }[] }>(`/exp/livesession/${sessionId}/livelessons`)).body.LiveLessons ?? [])
        made.push({ exp, id: lab.ID, sessionId });
    await browser?.close();
    browser = undefined;
    current = undefined;
    for (const lab of made.splice(0)) {
      await lab.exp.delete(`/exp/livelesson/${lab.id}?sessionId=${lab.sessionId}`);
      await expect.poll(async () => (await lab.exp.get(`/exp/livelesson/${lab.id}`)).status, { timeout: 120_000, interval: 500 }).toBe(404);
    }
  }, LONG);
  afterAll(async () => {
    expect(await platform?.stop()).toBe(0);
  });

  const newPage = async (screen: ScreenOptions): Promise<Page> => {
    browser = await launchChromium({ ...screen, baseURL: platform.api });
    log = await recordPages(browser.context);
    await browser.context.addInitScript(RECORD_PLACES);
    current = await browser.context.newPage();
    return current;
  };
  /** A lab requested through the API by another learner (`ip`), READY or waiting as the capacity allows. */
  const labElsewhere = async (ip: string, slug: string, sessionId?: string) => {
    const exp = expClient(platform.api, ip);
    const session = sessionId ?? (await exp.newSession());
    const id = await exp.requestLesson(session, slug);
    made.push({ exp, id, sessionId: session });
    return { exp, id, sessionId: session };
  };
  const end = (lab: { exp: ReturnType<typeof expClient>; id: string; sessionId: string }) =>
    lab.exp.delete(`/exp/livelesson/${lab.id}?sessionId=${lab.sessionId}`);

  it(
    'at 390×844: a lab waits in line with its place and wait in words, updated live (places only go down) until READY; my labs lists it; nothing wider than the screen',
    { timeout: LONG },
    async () => {
      // Another learner holds the three labs of capacity, and a third one waits first in line.
      const holders = [await labElsewhere('10.9.3.1', 'linux-basics')];
      holders.push(
        await labElsewhere('10.9.3.1', 'host-networking', holders[0].sessionId),
        await labElsewhere('10.9.3.1', 'web-services', holders[0].sessionId),
      );
      for (const holder of holders) await holder.exp.waitUntilReady(holder.id, 0, 120_000);
      const first = await labElsewhere('10.9.3.2', 'linux-basics');
      expect((await first.exp.get(`/exp/livelesson/${first.id}`)).body).toMatchObject({ Status: 'INITIALIZED', QueuePosition: 1 });

      const tab = await newPage(PHONE);
      await tab.goto('/labs/?lessonSlug=network-automation');
      const room = tab.locator('.waiting-room');
      await room.filter({ hasText: /^You are 2nd in line, (about \d+ min|a few moments)\. Every lab is in use right now/ }).waitFor(WAIT);
      expect(await tab.locator('.lab-state').innerText()).toBe('Waiting · 2nd in line');
      const id = (await labOf(tab, 'network-automation'))!;
      expect((await first.exp.get(`/exp/livelesson/${id}`)).body).toMatchObject({ Status: 'INITIALIZED', QueuePosition: 2 });
      expect(await widthOf(tab)).toBeLessThanOrEqual(390);
      await tab.screenshot({ path: join(SCREENSHOTS, 'lesson-waiting-phone.png') });

      // My labs: the badge counts the waiting lab; the panel says where it stands.
      const badge = tab.getByRole('button', { name: /^My labs/ });
      await expect.poll(() => badge.innerText(), WAIT).toMatch(/My labs\s*1/);
      await badge.tap();
      const item = tab.locator(`dialog.my-labs li.my-lab[data-lab="${id}"]`);
      await item
        .filter({ hasText: /Network Automation\s*Stage 1 · 2nd in line, (about \d+ min|a few moments) · last used (just now|\d+ min ago) · ends at/ })
        .waitFor(WAIT);
      expect(await widthOf(tab)).toBeLessThanOrEqual(390);
      const panel = (await tab.locator('dialog.my-labs').boundingBox())!;
      expect(panel.x).toBeGreaterThanOrEqual(0);
      expect(panel.x + panel.width).toBeLessThanOrEqual(390);
      await tab.screenshot({ path: join(SCREENSHOTS, 'my-labs-phone.png') });
      await tab.getByRole('button', { name: 'Close' }).tap();

      // The line is full (two waiting): another lesson is refused, in words, with when to try again.
      const other = await browser!.context.newPage();
      await other.goto('/labs/?lessonSlug=host-networking');
      const full = other.locator('.outcome[data-reason="QUEUE_FULL"]');
      await full.filter({ hasText: 'Every lab is in use and the line is full' }).waitFor(WAIT);
      expect(await full.locator('.outcome-text').innerText()).toMatch(
        /^Every lab is in use and the waiting line is full\. Please try again in about \d+ (seconds|minutes)\.$/,
      );
      expect(await full.locator('.retry-when').innerText()).toMatch(/^You can try again (in \d+ s|now)\.$/);
      expect(await widthOf(other)).toBeLessThanOrEqual(390);
      await other.close();

      // Capacity frees: the first in line starts, the page moves up, then its own lab starts and is READY.
      expect((await end(holders[0])).status).toBe(200);
      await room.filter({ hasText: /^You are 1st in line/ }).waitFor(WAIT);
      expect((await end(holders[1])).status).toBe(200);
      await tab.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
      expect(await room.isHidden()).toBe(true);
      expect(await placesShown(tab)).toEqual([2, 1, 0]);
      expect(await widthOf(tab)).toBeLessThanOrEqual(390);
      // The catalogue, with the badge in its header, fits the phone too.
      await tab.goto('/');
      await tab.locator('li.lesson[data-slug="linux-basics"]').waitFor(WAIT);
      await expect.poll(() => badge.innerText(), WAIT).toMatch(/My labs\s*1/);
      expect(await widthOf(tab)).toBeLessThanOrEqual(390);
      // The full line's 429 is the only problem the browser logged.
      expect(log.problems.filter((problem) => !/status of 429/.test(problem))).toEqual([]);
    },
  );

  it(
    'a 4th lesson in one session offers to end the oldest; one click ends it and the new lab starts; my labs (keyboard) lists the labs, resumes one and ends one',
    { timeout: LONG },
    async () => {
      const tab = await newPage(WIDE);
      const slugs = ['linux-basics', 'host-networking', 'web-services'];
      const ids: string[] = [];
      for (const slug of slugs) {
        await tab.goto(`/labs/?lessonSlug=${slug}`);
        await tab.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
        ids.push((await labOf(tab, slug))!);
      }
      const badge = tab.getByRole('button', { name: /^My labs/ });
      await expect.poll(() => badge.innerText(), WAIT).toMatch(/My labs\s*3/);

      // A fourth: the session holds its three; the page offers to end the one used least recently.
      await tab.goto('/labs/?lessonSlug=network-automation');
      const offer = tab.locator('.outcome[data-reason="LIVE_LESSON_LIMIT"]');
      await offer.filter({ hasText: 'You already have 3 labs open' }).waitFor(WAIT);
      expect(await offer.locator('.outcome-text').innerText()).toBe(
        'That is the most you can have at once. End one to start Network Automation: Linux Basics is the one you used least recently.',
      );
      await tab.screenshot({ path: join(SCREENSHOTS, 'lesson-limit.png') });
      await offer.getByRole('button', { name: 'End Linux Basics and start this one' }).click();
      await tab.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
      const fourth = (await labOf(tab, 'network-automation'))!;
      expect(fourth).not.toBe(ids[0]);
      expect(await labOf(tab, 'linux-basics')).toBeNull();
      const exp = expClient(platform.api, '127.0.0.1');
      await expect.poll(async () => (await exp.get(`/exp/livelesson/${ids[0]}`)).status, { timeout: 120_000, interval: 500 }).toBe(404);
      const requests = log.requests.filter((request) => request === 'POST /exp/livelesson');
      // The three labs, the refused fourth, the one click.
      expect(requests).toHaveLength(5);

      // My labs, by keyboard: the three labs the session holds, most recently used first.
      await expect.poll(() => badge.innerText(), WAIT).toMatch(/My labs\s*3/);
      await badge.focus();
      await tab.keyboard.press('Enter');
      const items = tab.locator('dialog.my-labs li.my-lab');
      await expect
        .poll(() => items.evaluateAll((all: { getAttribute(name: string): string | null }[]) => all.map((item) => item.getAttribute('data-slug'))), WAIT)
        .toEqual(['network-automation', 'web-services', 'host-networking']);
      await items
        .first()
        .filter({ hasText: /Network Automation\s*Stage 1 · Ready · last used (just now|\d+ min ago) · ends at .+ if unused/ })
        .waitFor(WAIT);
      await tab.screenshot({ path: join(SCREENSHOTS, 'my-labs.png') });

      // End one: asked first (the safe answer focused), then gone from the list and the count.
      await tab.getByRole('button', { name: 'End Host Networking' }).focus();
      await tab.keyboard.press('Enter');
      await tab.locator('dialog.confirm h2', { hasText: 'End Host Networking?' }).waitFor(WAIT);
      expect(await tab.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Keep it');
      await tab.keyboard.press('Shift+Tab');
      await tab.keyboard.press('Enter');
      await tab.locator('dialog.my-labs li.my-lab[data-slug="host-networking"]').waitFor({ state: 'detached', ...WAIT });
      await expect.poll(() => badge.innerText(), WAIT).toMatch(/My labs\s*2/);
      await expect.poll(async () => (await exp.get(`/exp/livelesson/${ids[1]}`)).status, { timeout: 120_000, interval: 500 }).toBe(404);

      // Resume: the lab page of that lab, which carries on (no new lab requested).
      await tab.getByRole('link', { name: 'Resume Web Services' }).focus();
      await tab.keyboard.press('Enter');
      await tab.waitForURL(/lessonSlug=web-services&lessonStage=0$/, WAIT);
      await tab.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
      expect(await labOf(tab, 'web-services')).toBe(ids[2]);
      expect(log.requests.filter((request) => request === 'POST /exp/livelesson')).toHaveLength(5);
      // The refused request's 429 is the only problem the browser logged.
      expect(log.problems.filter((problem) => !/status of 429/.test(problem))).toEqual([]);
    },
  );
});
