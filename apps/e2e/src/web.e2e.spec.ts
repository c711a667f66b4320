import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { namespaceName } from '@antidote/lesson-objects';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { antictlUp, ROOT, type UpPlatform } from './support/antictl-up.js';
import { expClient, namespaceStatus } from './support/exp-client.js';
import { launchChromium } from './support/web-browser.js';

const LONG = 600_000;
/** Ceiling of a locator wait: they end as soon as the condition holds. */
const WAIT = { timeout: 240_000 };
const INSTANCE = 'antidote-web';
const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');

/** A short idle TTL (15 s) and a reaper pass every second, so keep-alive and expiry show within the test. */
const platformConfig = { instanceId: INSTANCE, liveLessonTTL: 0.25, gc: { intervalSeconds: 1 }, api: { rateLimitPerMinute: 0 } };

/** The id of the page's lab, as the page keeps it for its other tabs. */
const labIdOf = (page: Page): Promise<string> => page.evaluate<string>('localStorage.getItem("antidote.lab.linux-basics")');

/**
 * The learner's UI in Debian's headless Chromium against `antictl up` (every app a process; the api
 * serves the UI): catalogue, a lab to READY, a terminal, a stage change, the end of the lab; keep-alive.
 */
describe("the learner's lab in a real browser (antictl up, headless Chromium)", () => {
  let platform: UpPlatform;
  let browser: { context: BrowserContext; close(): Promise<void> } | undefined;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    platform = await antictlUp({ config: platformConfig });
  }, LONG);
  // Each test its own browser and profile, so its own learner session (a page left open by a failed
  // test cannot keep another test's lab alive).
  beforeEach(async () => {
    browser = await launchChromium();
  }, LONG);
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });
  afterAll(async () => {
    expect(await platform?.stop()).toBe(0);
  });

  it('catalogue → lab READY → a command in the terminal → next stage → end lab (its namespace goes)', { timeout: LONG }, async () => {
    const page = await browser!.context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    await page.goto(`${platform.api}/`);
    await page.locator('li.lesson[data-slug="linux-basics"]').waitFor(WAIT);
    await page.locator('li.lesson[data-slug="network-automation"]').waitFor(WAIT);
    await page.screenshot({ path: join(SCREENSHOTS, 'catalogue.png'), fullPage: true });

    await page.getByLabel('Search').fill('automation');
    await page.locator('li.lesson[data-slug="linux-basics"]').waitFor({ state: 'detached', ...WAIT });
    await page.getByLabel('Search').fill('');
    await page.locator('li.lesson[data-slug="linux-basics"] a', { hasText: 'Linux Basics' }).click();

    await page.waitForURL(/\/labs\/\?lessonSlug=linux-basics&lessonStage=0$/, WAIT);
    await page.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
    await page.locator('.guide h1', { hasText: 'Look around' }).waitFor(WAIT);
    await page.locator('.topology .node[data-endpoint="linux1"][data-state="reachable"]').waitFor({ state: 'attached', ...WAIT });
    await page.locator('.terminal-status', { hasText: 'Connected to linux1' }).waitFor(WAIT);

    await page.locator('.term-box .xterm').click();
    await page.keyboard.type('echo hello-from-chromium');
    await page.keyboard.press('Enter');
    await page.locator('.term-box .xterm-rows', { hasText: /hello-from-chromium[\s\S]*hello-from-chromium/ }).waitFor(WAIT);
    await page.screenshot({ path: join(SCREENSHOTS, 'lab.png') });
    // Once READY, progress and topology fold into the header strip: "Topology" shows them.
    await page.getByRole('button', { name: 'Topology' }).click();
    await page.locator('.topology-panel').screenshot({ path: join(SCREENSHOTS, 'topology.png') });
    await page.getByRole('button', { name: 'Topology' }).click();

    // A guide snippet typed into the terminal by its button.
    await page.getByRole('button', { name: 'Run in terminal' }).first().click();
    await page.locator('.term-box .xterm-rows', { hasText: /\$\s*hostname\s*linux1/ }).waitFor(WAIT);

    const id = await labIdOf(page);
    const namespace = namespaceName(INSTANCE, id);
    expect(await namespaceStatus(platform.kubeSim, namespace)).toBe(200);

    await page.getByRole('button', { name: 'Next stage', exact: true }).click();
    await page.waitForURL(/lessonStage=1$/, WAIT);
    await page.locator('.guide h1', { hasText: 'Files and permissions' }).waitFor(WAIT);
    await page.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);

    await page.getByRole('button', { name: 'End lab' }).click();
    await page.getByRole('button', { name: 'End the lab' }).click();
    await page.locator('.outcome', { hasText: 'The lab has ended' }).waitFor(WAIT);
    await expect.poll(() => namespaceStatus(platform.kubeSim, namespace), { timeout: 120_000, interval: 500 }).toBe(404);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps a lab alive while the page is open, and lets it expire once the page is closed', { timeout: LONG }, async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${platform.api}/labs/?lessonSlug=linux-basics&lessonStage=0`);
    await page.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
    const id = await labIdOf(page);
    // A lab nobody looks at, requested after the page's lab: once the reaper took it (idle past the TTL),
    // the page's older lab would have gone too, had the page not kept it alive.
    const exp = expClient(platform.api, '10.9.0.1', '');
    const unwatched = await exp.requestLesson(await exp.newSession(), 'linux-basics');
    await expect.poll(async () => (await exp.get(`/exp/livelesson/${unwatched}`)).status, { timeout: 180_000, interval: 500 }).toBe(404);
    expect((await exp.get(`/exp/livelesson/${id}`)).status).toBe(200);

    await page.close();
    await expect.poll(async () => (await exp.get(`/exp/livelesson/${id}`)).status, { timeout: 180_000, interval: 500 }).toBe(404);
    await expect.poll(() => namespaceStatus(platform.kubeSim, namespaceName(INSTANCE, id)), { timeout: 120_000, interval: 500 }).toBe(404);
  });
});
