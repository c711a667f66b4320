import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { namespaceName } from '@antidote/lesson-objects';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { antictlUp, ROOT, type UpPlatform } from './support/antictl-up.js';
import { deleteNamespace, expClient, setSimFaults } from './support/exp-client.js';
import { contrastProblems, focusRingProblems, recordPages, wholeInViewport, type PageLog } from './support/lab-browser.js';
import { launchChromium, type ScreenOptions } from './support/web-browser.js';

const LONG = 600_000;
/** Ceiling of a locator wait: they end as soon as the condition holds. */
const WAIT = { timeout: 240_000 };
const ADMIN = 'web-lesson-admin';
const INSTANCE = 'antidote-lesson';
const SLUG = 'host-networking';
const LESSON = `/labs/?lessonSlug=${SLUG}`;
const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');
const WIDE: ScreenOptions = { viewport: { width: 1280, height: 800 } };
const PHONE: ScreenOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
/** The guide's https image (no internet here: answered by the test, as the site would). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * A 2 min idle TTL (keep-alive every 30 s) — longer than the api stays hung in the lab's-truth test (until
 * the page says "No connection": the next keep-alive or 40 s of silence, then a request's 15 s), so the
 * reaper does not end the idle lab meanwhile (with a 30 s TTL it sometimes did, on a loaded machine) — and
 * a reaper pass every second. The api's other settings are its defaults.
 */
const platformConfig = { instanceId: INSTANCE, liveLessonTTL: 2, gc: { intervalSeconds: 1 }, api: { rateLimitPerMinute: 0, adminToken: ADMIN } };

/** The lab page's state: its lab (this browser's, from storage), stage and the guide's first heading. */
const labOf = (page: Page) => page.evaluate<string | null>(`localStorage.getItem('antidote.lab.${SLUG}')`);
const shownStage = async (page: Page) => Number(await page.locator('#stage').inputValue());
const rows = (page: Page, tab: string) => page.locator(`.tab-panel[data-tab="${tab}"] .xterm-rows`);

/** Opens the lesson and waits until its lab is READY and the first terminal has a prompt. */
async function openLab(page: Page, path = LESSON): Promise<void> {
  await page.goto(path);
  await page.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
  await page.locator('.tab-panel[data-tab="linux1-cli"] .xterm-rows', { hasText: 'linux1$' }).waitFor({ state: 'attached', ...WAIT });
}

describe("the lab page on a real lesson: NRE guide controls, two presentations, media, the lab's truth (antictl up, headless Chromium)", () => {
  let platform: UpPlatform;
  let admin: ReturnType<typeof expClient>;
  let browser: { context: BrowserContext; close(): Promise<void> } | undefined;
  let log: PageLog;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    platform = await antictlUp({ config: platformConfig });
    admin = expClient(platform.api, '10.9.1.1', ADMIN);
  }, LONG);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && log) {
      const shown = await browser?.context
        .pages()[0]
        ?.locator('body')
        .innerText()
        .catch(() => '');
      console.error(`the page showed:\n${shown}\nits last answers:\n${log.timeline.slice(-60).join('\n')}`);
    }
    await browser?.close();
    browser = undefined;
  });
  afterAll(async () => {
    expect(await platform?.stop()).toBe(0);
  });

  /** A browser of its own (own profile: own learner session), every page recorded; the guide's https image answered. */
  const newBrowser = async (screen: ScreenOptions = WIDE): Promise<BrowserContext> => {
    browser = await launchChromium({ ...screen, baseURL: platform.api });
    log = await recordPages(browser.context);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.api });
    await browser.context.route('https://raw.githubusercontent.com/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PNG }));
    await browser.context.route('https://www.youtube-nocookie.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>video</title><p>video</p>' }),
    );
    return browser.context;
  };
  const page = (context: BrowserContext): Promise<Page> => context.newPage();
  /** The labs of the lesson the platform holds for this page's session. */
  const labsOfSession = async (tab: Page): Promise<{ ID: string; CurrentStage: number }[]> => {
    const sessionId = await tab.evaluate<string | null>('localStorage.getItem("antidote.sessionId")');
    const answer = await admin.call<{ LiveLessons: Record<string, { ID: string; SessionID: string; LessonSlug: string; CurrentStage: number }> }>(
      'GET',
      '/exp/admin/livelessons',
      undefined,
      { authorization: `Bearer ${ADMIN}` },
    );
    return Object.values(answer.body.LiveLessons).filter((lab) => lab.SessionID === sessionId && lab.LessonSlug === SLUG);
  };
  const clean = () => {
    expect(log.problems).toEqual([]);
    expect(log.passwordLeaks).toEqual([]);
  };

  it(
    'at 1280×800: guide and the active terminal on screen after READY and scrolled; each guide control types into the terminal it names; media shown, no CSP violation',
    { timeout: LONG },
    async () => {
      const tab = await page(await newBrowser());
      await openLab(tab);
      expect(await tab.title()).toBe('Host Networking');
      const guide = tab.locator('.pane-guide');
      const terminal = tab.locator('.tab-panel:not([hidden]) .term-box');
      expect(await wholeInViewport(tab, terminal)).toBe(true);
      expect((await guide.boundingBox())!.width).toBeGreaterThan(400);
      // The guide scrolls on its own: scrolled to its middle, the terminal stays where it was.
      type Scroller = { scrollTop: number; scrollHeight: number; clientHeight: number };
      const scrolled = await guide.evaluate((element: Scroller) => {
        element.scrollTop = (element.scrollHeight - element.clientHeight) / 2;
        return { top: element.scrollTop, long: element.scrollHeight > 2 * element.clientHeight };
      });
      expect(scrolled.long).toBe(true);
      await expect.poll(() => guide.evaluate((element: Scroller) => element.scrollTop)).toBe(scrolled.top);
      expect(await tab.evaluate<number>('window.scrollY')).toBe(0);
      expect(await wholeInViewport(tab, terminal)).toBe(true);
      expect(await tab.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
      await tab.screenshot({ path: join(SCREENSHOTS, 'lesson-wide.png') });

      // Images: by a path relative to the stage's folder (served by the api), and by an https URL.
      const relative = tab.locator('.guide-body img[alt="linux1 and linux2 on one link"]');
      await expect.poll(() => relative.evaluate((image: { naturalWidth: number }) => image.naturalWidth), WAIT).toBeGreaterThan(0);
      expect(await relative.getAttribute('src')).toBe(`/web/lessons/${SLUG}/files/stage0/images/topology.svg`);
      const remote = tab.locator('.guide-body img[src^="https://raw.githubusercontent.com/"]');
      await remote.scrollIntoViewIfNeeded();
      await expect.poll(() => remote.evaluate((image: { naturalWidth: number }) => image.naturalWidth), WAIT).toBeGreaterThan(0);

      // NRE's controls, as the guide wrote them: each types its block into the terminal it names, shown and focused.
      // Terminal rows run together in the text Playwright matches: `\s*` between a command and its answer.
      const typed: [number, string, RegExp][] = [
        [0, 'linux1-cli', /linux1\$ hostname\s*linux1\s*linux1\$ whoami\s*antidote/],
        [1, 'linux2', /linux2\$ hostname\s*linux2\s*linux2\$ uname -n\s*linux2/],
        [2, 'linux1-cli', /linux1\$ ip addr\s*1: lo:/],
        // runSnippetInTab('linux2', 0): the guide's first code block, on linux2.
        [3, 'linux2', /linux2\$ uname -n\s*linux2\s*linux2\$ hostname\s*linux2\s*linux2\$ whoami\s*antidote/],
      ];
      const controls = tab.locator('.guide-control');
      expect(await controls.count()).toBe(5);
      for (const [index, target, output] of typed) {
        await controls.nth(index).click();
        expect(await tab.locator('.tab[aria-selected="true"]').getAttribute('data-tab')).toBe(target);
        await rows(tab, target).filter({ hasText: output }).waitFor(WAIT);
        expect(await tab.evaluate<boolean>(`document.activeElement.closest('.tab-panel')?.dataset.tab === '${target}'`)).toBe(true);
        expect(await wholeInViewport(tab, tab.locator('.tab-panel:not([hidden]) .term-box'))).toBe(true);
      }
      expect(await rows(tab, 'linux1-cli').innerText()).not.toContain('uname');
      // switchToTab('linux1-web'): the web presentation's tab, typing nothing.
      await controls.nth(4).click();
      expect(await tab.locator('.tab[aria-selected="true"]').getAttribute('data-tab')).toBe('linux1-web');
      await tab.locator('.tab-panel[data-tab="linux1-web"] a', { hasText: 'Open linux1 · web' }).waitFor(WAIT);

      // A block no control names: "Run in terminal" asks which terminal; "Copy" copies it.
      await tab.getByRole('button', { name: 'Run in terminal' }).click();
      await tab.locator('.chooser button[data-tab="linux2"]').click();
      await rows(tab, 'linux2')
        .filter({ hasText: /linux2\$ id\s*uid=1000\(antidote\)/ })
        .waitFor(WAIT);
      await tab.locator('.code-copy').first().click();
      await expect.poll(() => tab.evaluate<string>('navigator.clipboard.readText()')).toBe('hostname\nwhoami');

      // The lesson's diagram (a file of the lesson) and video (https), as antidote-web offered them.
      await tab.getByRole('button', { name: 'Diagram' }).click();
      await expect.poll(() => tab.locator('dialog img').evaluate((image: { naturalWidth: number }) => image.naturalWidth), WAIT).toBeGreaterThan(0);
      await tab.locator('dialog').getByRole('button', { name: 'Close' }).click();
      await tab.getByRole('button', { name: 'Video', exact: true }).click();
      expect(await tab.locator('dialog iframe').getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
      await tab.keyboard.press('Escape');
      expect(log.requests.filter((request) => request === 'POST /exp/livelesson')).toHaveLength(1);
      clean();
    },
  );

  it(
    'terminals as people expect: Ctrl+Shift+C / Ctrl+Shift+V, Ctrl+C, reconnect; a reload keeps the scrollback and resumes the lab at its stage',
    { timeout: LONG },
    async () => {
      const context = await newBrowser();
      const tab = await page(context);
      await openLab(tab);
      const linux1 = rows(tab, 'linux1-cli');
      await tab.locator('.tab-panel[data-tab="linux1-cli"] .xterm').click();
      await tab.keyboard.type('echo interrupted-line');
      await tab.keyboard.press('Control+C');
      await linux1.filter({ hasText: /echo interrupted-line\^C\s*linux1\$/ }).waitFor(WAIT);
      await tab.evaluate<void>('navigator.clipboard.writeText("echo pasted-with-ctrl-shift-v")');
      await tab.keyboard.press('Control+Shift+V');
      await linux1.filter({ hasText: /linux1\$ echo pasted-with-ctrl-shift-v\s*$/ }).waitFor(WAIT);
      await tab.keyboard.press('Enter');
      await linux1.filter({ hasText: /linux1\$ echo pasted-with-ctrl-shift-v\s*pasted-with-ctrl-shift-v/ }).waitFor(WAIT);
      // A line selected with the mouse (three clicks) is copied by Ctrl+Shift+C.
      const line = (await linux1.locator('div', { hasText: /^pasted-with-ctrl-shift-v\s*$/ }).boundingBox())!;
      await tab.mouse.click(line.x + 20, line.y + line.height / 2, { clickCount: 3 });
      await tab.keyboard.press('Control+Shift+C');
      await expect.poll(() => tab.evaluate<string>('navigator.clipboard.readText()')).toMatch(/^pasted-with-ctrl-shift-v\s*$/);

      // The shell ends: the terminal says so and offers to reconnect.
      await tab.keyboard.type('exit');
      await tab.keyboard.press('Enter');
      await tab.locator('.terminal-status', { hasText: 'Disconnected from linux1 · cli: the session ended' }).waitFor(WAIT);
      await tab.getByRole('button', { name: 'Reconnect' }).click();
      await tab.locator('.terminal-status', { hasText: 'Connected to linux1 · cli' }).waitFor(WAIT);
      await tab.locator('.tab-panel[data-tab="linux1-cli"] .xterm').click();
      await tab.keyboard.type('echo after-reconnect');
      await tab.keyboard.press('Enter');
      await linux1.filter({ hasText: /echo after-reconnect\s*after-reconnect/ }).waitFor(WAIT);

      // Next stage, then a reload: the same lab at stage 1, the terminal's earlier lines still there.
      const lab = await labOf(tab);
      await tab.getByRole('button', { name: 'Next stage', exact: true }).click();
      await tab.locator('.guide-body h1', { hasText: 'Routes' }).waitFor(WAIT);
      await tab.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
      await tab.reload();
      await tab.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
      await tab.locator('.guide-body h1', { hasText: 'Routes' }).waitFor(WAIT);
      expect(await labOf(tab)).toBe(lab);
      expect(await shownStage(tab)).toBe(1);
      await linux1.filter({ hasText: /after-reconnect[\s\S]*before the reload/ }).waitFor({ state: 'attached', ...WAIT });
      // Opened again from the catalogue (no stage in its link), the running lab resumes at stage 1.
      await tab.goto('/');
      await tab.locator(`li.lesson[data-slug="${SLUG}"] h3 a`).click();
      await tab.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
      expect(tab.url()).toMatch(/lessonStage=1$/);
      expect(await labOf(tab)).toBe(lab);
      expect(await labsOfSession(tab)).toEqual([expect.objectContaining({ ID: lab, CurrentStage: 1 })]);
      clean();
    },
  );

  it('the stage is browser history; two tabs on different stages end on one stage, and keep-alives never flip it', { timeout: LONG }, async () => {
    const context = await newBrowser();
    const first = await page(context);
    await openLab(first);
    const second = await page(context);
    await openLab(second, `${LESSON}&lessonStage=1`);
    // The second tab asked for stage 1: the lab moved, and the first tab with it.
    await first.locator('.guide-body h1', { hasText: 'Routes' }).waitFor(WAIT);
    await expect.poll(() => shownStage(first), WAIT).toBe(1);
    expect(first.url()).toMatch(/lessonStage=1$/);
    // Keep-alives from both tabs (a few each) renew the lab without moving it.
    const renewals = () => log.requests.filter((request) => /^POST \/exp\/livelesson\/\w+\/keepalive$/.test(request)).length;
    const before = renewals();
    await expect.poll(renewals, { timeout: 120_000, interval: 500 }).toBeGreaterThanOrEqual(before + 4);
    expect(await labsOfSession(first)).toEqual([expect.objectContaining({ CurrentStage: 1 })]);
    expect([await shownStage(first), await shownStage(second)]).toEqual([1, 1]);

    // A stage change in the second tab is a step of its history: the lab and the first tab follow it
    // there, and back again with the browser's Back.
    await second.getByRole('button', { name: 'Previous stage', exact: true }).click();
    await second.locator('.guide-body h1', { hasText: 'Meet the hosts' }).waitFor(WAIT);
    await first.locator('.guide-body h1', { hasText: 'Meet the hosts' }).waitFor(WAIT);
    await expect.poll(async () => (await labsOfSession(first))[0]?.CurrentStage, WAIT).toBe(0);
    await second.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
    await second.goBack();
    await second.locator('.guide-body h1', { hasText: 'Routes' }).waitFor(WAIT);
    expect(second.url()).toMatch(/lessonStage=1$/);
    await first.locator('.guide-body h1', { hasText: 'Routes' }).waitFor(WAIT);
    await expect.poll(async () => (await labsOfSession(first))[0]?.CurrentStage, WAIT).toBe(1);
    expect([await shownStage(first), await shownStage(second)]).toEqual([1, 1]);
    // Four requests for the lab: the first tab's, the second's stage 1, its stage 0, Back's stage 1 —
    // keep-alives are renewals, never requests.
    expect(log.requests.filter((request) => request === 'POST /exp/livelesson')).toHaveLength(4);
    clean();
  });

  it(
    'ending the lab in a second tab shows "ended" in the first within 10 s; no new lab appears in the next 70 s; one click starts again',
    { timeout: LONG },
    async () => {
      const context = await newBrowser();
      const first = await page(context);
      await openLab(first);
      const second = await page(context);
      await openLab(second);
      const lab = await labOf(first);
      expect(await labOf(second)).toBe(lab);

      await second.getByRole('button', { name: 'End lab' }).click();
      await second.getByRole('button', { name: 'End the lab' }).click();
      await second.locator('.outcome', { hasText: 'You ended this lab' }).waitFor(WAIT);
      await first.locator('.outcome', { hasText: 'The lab has ended' }).waitFor({ timeout: 10_000 });
      expect(await first.locator('.lab-state').innerText()).toBe('Ended');
      expect(await first.title()).toMatch(/^Host Networking — the lab has ended$/);

      // For the next 70 s (two keep-alive periods of 30 s), no lab of this session exists, and neither
      // tab asks for one or renews one.
      const requestsAtEnd = log.requests.length;
      const until = Date.now() + 70_000;
      while (Date.now() < until) {
        expect(await labsOfSession(first)).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      expect(log.requests.slice(requestsAtEnd).filter((request) => request.startsWith('POST '))).toEqual([]);

      // "Start again": a new lab, and the other tab follows it.
      await first.getByRole('button', { name: 'Start again' }).click();
      await first.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
      await second.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
      const again = await labOf(first);
      expect(again).not.toBe(lab);
      expect(await labOf(second)).toBe(again);
      expect(await labsOfSession(first)).toEqual([expect.objectContaining({ ID: again })]);
      clean();
    },
  );

  it('at 390×844: the catalogue and the lab no wider than the screen; the terminal one tap away and sized once', { timeout: LONG }, async () => {
    const tab = await page(await newBrowser(PHONE));
    const width = () => tab.evaluate<number>('document.documentElement.scrollWidth');
    await tab.goto('/');
    await tab.locator(`li.lesson[data-slug="${SLUG}"]`).waitFor(WAIT);
    expect(await width()).toBeLessThanOrEqual(390);
    await tab.locator(`li.lesson[data-slug="${SLUG}"] h3 a`).tap();
    await tab.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
    await tab.locator('.guide-body h1', { hasText: 'Meet the hosts' }).waitFor(WAIT);
    expect(await width()).toBeLessThanOrEqual(390);
    await tab.screenshot({ path: join(SCREENSHOTS, 'lesson-phone-guide.png') });

    await tab.locator('.pane-switch button', { hasText: 'Terminals' }).tap();
    const terminal = tab.locator('.tab-panel:not([hidden]) .term-box');
    await rows(tab, 'linux1-cli').filter({ hasText: 'linux1$' }).waitFor(WAIT);
    expect(await wholeInViewport(tab, terminal)).toBe(true);
    expect(await width()).toBeLessThanOrEqual(390);
    await tab.screenshot({ path: join(SCREENSHOTS, 'lesson-phone-terminal.png') });
    await tab.locator('.pane-switch button', { hasText: 'Topology' }).tap();
    await tab.locator('.topology .node[data-endpoint="linux2"][data-state="reachable"]').waitFor(WAIT);
    expect(await width()).toBeLessThanOrEqual(390);

    // A guide control brings the terminal it names to the front.
    await tab.locator('.pane-switch button', { hasText: 'Guide' }).tap();
    await tab.locator('.guide-control').first().tap();
    await rows(tab, 'linux1-cli')
      .filter({ hasText: /linux1\$ hostname\s*linux1/ })
      .waitFor(WAIT);
    expect(await wholeInViewport(tab, terminal)).toBe(true);
    expect(await width()).toBeLessThanOrEqual(390);
    // Shown, hidden and shown again, the terminal told its size to the device once.
    const terminalFrames = [...log.framesSent].filter(([url]) => url.includes('presentation=cli') && url.includes('endpoint=linux1'));
    expect(terminalFrames).toHaveLength(1);
    expect(terminalFrames[0][1].filter((frame) => frame.includes('"resize"'))).toHaveLength(1);
    clean();
  });

  it(
    'the lab\'s truth: the api hung → "No connection", never a stale READY, then back; removed by the platform → ended; failed, or its namespace deleted by hand → the reason in words, details, start again',
    { timeout: LONG },
    async () => {
      const tab = await page(await newBrowser());
      await openLab(tab);
      const api = platform.pidOf('api');
      process.kill(api, 'SIGSTOP');
      try {
        await tab.locator('.lab-state[data-tone="bad"]', { hasText: 'No connection' }).waitFor(WAIT);
        await tab.locator('.lab-notice', { hasText: 'Cannot reach the platform' }).waitFor(WAIT);
      } finally {
        process.kill(api, 'SIGCONT');
      }
      await tab.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);
      await tab.locator('.lab-notice').waitFor({ state: 'hidden', ...WAIT });

      const lab = (await labOf(tab))!;
      expect((await admin.call('DELETE', `/exp/admin/livelesson/${lab}`, undefined, { authorization: `Bearer ${ADMIN}` })).status).toBe(200);
      await tab.locator('.outcome', { hasText: 'The platform removed this lab' }).waitFor(WAIT);
      expect(await tab.locator('.lab-state').innerText()).toBe('Ended');

      // A lab that fails: the reason in a learner's words, the scheduler's text behind "Details", and "Start again".
      await setSimFaults(platform.kubeSim, { imagePullFailure: ['utility'] });
      try {
        const before = log.problems.length;
        await tab.getByRole('button', { name: 'Start again' }).click();
        await tab.locator('.outcome.failed', { hasText: 'A device of the lab could not be loaded.' }).waitFor(WAIT);
        // The lab may fail while the page reads its guide: GET /exp/livelesson/{id} then answers 409 (the
        // original API's answer for a failed lab), which the browser logs. Nothing else is excused.
        log.problems.splice(
          before,
          log.problems.length - before,
          ...log.problems.slice(before).filter((problem) => !/status of 409 \(Conflict\)/.test(problem)),
        );
        expect(await tab.locator('.outcome details pre').textContent()).toMatch(/image|pull/i);
        expect(await tab.locator('.lab-state').innerText()).toBe('Failed');
      } finally {
        await setSimFaults(platform.kubeSim, { imagePullFailure: [] });
      }
      await tab.getByRole('button', { name: 'Start again' }).click();
      await tab.locator('.lab-state[data-tone="ready"]').waitFor(WAIT);

      // Its namespace deleted by hand: the platform fails the lab, and the page says what happened.
      expect(await deleteNamespace(platform.kubeSim, namespaceName(INSTANCE, (await labOf(tab))!))).toBe(200);
      await tab.locator('.outcome', { hasText: 'The lab stopped working' }).waitFor(WAIT);
      expect(await tab.locator('.outcome-text').innerText()).toContain('Its devices were removed outside the platform');
      expect(await tab.locator('.outcome details pre').textContent()).toMatch(/deleted outside Antidote/);
      clean();
    },
  );

  it(
    'assets compressed and versioned, xterm only on the lab page, guide HTML without styles or handlers, WCAG AA contrast in both colour schemes',
    { timeout: LONG },
    async () => {
      const context = await newBrowser();
      const tab = await page(context);
      const responses: { url: string; encoding?: string; cache?: string }[] = [];
      tab.on('response', (response) =>
        responses.push({ url: response.url(), encoding: response.headers()['content-encoding'], cache: response.headers()['cache-control'] }),
      );
      await tab.goto('/');
      await tab.locator(`li.lesson[data-slug="${SLUG}"]`).waitFor(WAIT);
      expect(responses.filter((response) => /xterm|marked|purify/.test(response.url))).toEqual([]);
      for (const scheme of ['light', 'dark'] as const) {
        await tab.emulateMedia({ colorScheme: scheme });
        expect(await contrastProblems(tab), scheme).toEqual([]);
      }
      await openLab(tab);
      const xterm = responses.find((response) => response.url.endsWith('/vendor/xterm.mjs'))!;
      expect(xterm.encoding).toMatch(/^(br|gzip)$/);
      expect(xterm.cache).toBe('public, max-age=31536000, immutable');

      // The sanitiser, in the page: a guide's inline style (a full-page overlay) and its handlers are gone; NRE's calls are kept.
      const main = new URL(responses.find((response) => response.url.endsWith('/js/main.js'))!.url);
      const rendered = await tab.evaluate<string>(`import('${main.pathname.replace('main.js', 'guide.js')}').then(({ renderMarkdown }) => {
      const box = document.createElement('div');
      box.append(renderMarkdown('<div style="position:fixed;inset:0;z-index:99;background:red" onclick="alert(1)">overlay</div>\\n\\n<button onclick="runSnippetInTab(\\'linux1\\', this)">Run</button> <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onerror="alert(2)">'));
      return box.innerHTML;
    })`);
      expect(rendered).toContain('overlay');
      expect(rendered).not.toMatch(/style=|onclick|onerror|alert/);
      expect(rendered).toContain('data-guide-call="run" data-guide-tab="linux1" data-guide-snippet="this"');

      for (const scheme of ['light', 'dark'] as const) {
        await tab.emulateMedia({ colorScheme: scheme });
        expect(await contrastProblems(tab), scheme).toEqual([]);
        await tab.locator('.pane-guide').focus();
        expect(await focusRingProblems(tab, 12), scheme).toEqual([]);
      }
      await tab.emulateMedia({ colorScheme: 'dark' });
      await tab.screenshot({ path: join(SCREENSHOTS, 'lesson-wide-dark.png') });
      clean();
    },
  );
});
