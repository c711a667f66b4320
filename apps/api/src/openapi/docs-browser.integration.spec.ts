import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from '../../test/api-fixture.js';
import { API_ROUTES } from './api-routes.js';

/** Debian's Chromium, headless, as CI installs it (the e2e browser spec uses the same). */
const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

describe('the API docs page in a real browser, under its CSP', () => {
  let api: ApiFixture;
  let browser: Browser;
  beforeAll(async () => {
    api = await startApi('sqlite', { api: { rateLimitPerMinute: 0 } });
    browser = await chromium.launch(CHROMIUM);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('renders every operation, fetching only from its own origin, with no CSP violation or console error', { timeout: 120_000 }, async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    const origins = new Set<string>();
    page.on(
      'console',
      (message) => void (message.type() === 'error' || message.type() === 'warning' ? problems.push(`${message.type()}: ${message.text()}`) : undefined),
    );
    page.on('pageerror', (error) => void problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => void problems.push(`failed: ${request.url()}`));
    page.on('request', (request) => void origins.add(new URL(request.url()).origin));
    await page.goto(`${api.url}/exp/docs`, { timeout: 60_000 });
    await page
      .locator('.opblock')
      .nth(API_ROUTES.length - 1)
      .waitFor({ timeout: 60_000 });
    expect(await page.locator('.opblock').count()).toBe(API_ROUTES.length);
    expect(await page.locator('.info .title').textContent({ timeout: 30_000 })).toContain('Antidote API');
    expect(problems).toEqual([]);
    expect([...origins]).toEqual([api.url]);
  });
});
