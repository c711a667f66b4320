import type { BrowserContext, Locator, Page } from 'playwright-core';

/** The utility image's device password (examples/curriculum/images/utility): never in anything the page receives. */
export const DEVICE_PASSWORD = 'antidotepassword';

/** What a page did and received, recorded as it happens. */
export interface PageLog {
  /** Console errors, uncaught exceptions and Content-Security-Policy violations. */
  problems: string[];
  /** Responses (and terminal frames) that carried a device password. */
  passwordLeaks: string[];
  /** `METHOD /path?query` of every request the page made. */
  requests: string[];
  /** Each terminal socket's frames sent by the page, by its URL. */
  framesSent: Map<string, string[]>;
  /** `+seconds METHOD /path → status` of every answer, and the page's failed requests: printed when a test fails. */
  timeline: string[];
}

/** Recorded in the page itself: the browser reports a violation as an event, not always on the console. */
const CSP_RECORDER = `document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));`;

/** Every page of `context` from now on, recorded into the returned log. */
export async function recordPages(context: BrowserContext): Promise<PageLog> {
  const log: PageLog = { problems: [], passwordLeaks: [], requests: [], framesSent: new Map(), timeline: [] };
  const started = Date.now();
  const at = (what: string): number => log.timeline.push(`+${((Date.now() - started) / 1000).toFixed(1)}s ${what}`);
  await context.addInitScript(CSP_RECORDER);
  const watch = (page: Page): void => {
    page.on('console', (message) => message.type() === 'error' && log.problems.push(message.text()));
    page.on('pageerror', (error) => log.problems.push(`uncaught: ${error.message}`));
    page.on('request', (request) => {
      const url = new URL(request.url());
      log.requests.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    page.on('requestfailed', (request) => at(`${request.method()} ${new URL(request.url()).pathname} failed: ${request.failure()?.errorText}`));
    page.on('response', (response) => {
      at(`${response.request().method()} ${new URL(response.url()).pathname} → ${response.status()}`);
      // An event stream is followed for the lab's whole life: its body never ends, and carries status only.
      if (/event-stream/.test(response.headers()['content-type'] ?? '') || response.request().method() === 'HEAD') return;
      void response.body().then(
        (body) => body.includes(DEVICE_PASSWORD) && log.passwordLeaks.push(response.url()),
        () => undefined,
      );
    });
    page.on('websocket', (socket) => {
      const sent: string[] = [];
      log.framesSent.set(`${socket.url()}#${log.framesSent.size}`, sent);
      socket.on('framesent', (frame) => sent.push(String(frame.payload)));
      socket.on('framereceived', (frame) => String(frame.payload).includes(DEVICE_PASSWORD) && log.passwordLeaks.push(socket.url()));
    });
  };
  context.on('page', watch);
  for (const page of context.pages()) watch(page);
  return log;
}

/** Whether the element's whole box is inside the viewport (and it has a size). */
export async function wholeInViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  return (
    !!box &&
    box.width > 0 &&
    box.height > 0 &&
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= viewport.width + 0.5 &&
    box.y + box.height <= viewport.height + 0.5
  );
}

/** In the page: WCAG's relative luminance and contrast ratio of CSS colours, and the opaque background behind an element. */
const COLOUR_HELPERS = `
  const rgba = (value) => (value.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const ratio = (a, b) => {
    const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (l1 + 0.05) / (l2 + 0.05);
  };
  const backgroundOf = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const color = rgba(getComputedStyle(node).backgroundColor);
      if (color.length === 3 || (color.length === 4 && color[3] === 1)) return color.slice(0, 3);
    }
    return [255, 255, 255];
  };`;

/**
 * WCAG AA contrast of every visible text on the page: 4.5:1, or 3:1 for large text (24 px, or 18.66 px
 * bold), against the first opaque background behind it. Disabled controls and the terminal's own screen
 * are left out. Answers the failures as `text: ratio (colour on background)`.
 */
export function contrastProblems(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {${COLOUR_HELPERS}
    const problems = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      const text = node.textContent.trim();
      if (!text || element.closest('.xterm, [hidden], .sr-only, svg, button:disabled, select:disabled, [aria-hidden="true"]')) continue;
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
      const size = Number.parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const behind = backgroundOf(element);
      const value = ratio(rgba(style.color).slice(0, 3), behind);
      if (value < (large ? 3 : 4.5)) problems.push(text.slice(0, 40) + ': ' + value.toFixed(2) + ' (' + style.color + ' on rgb(' + behind.join(', ') + '))');
    }
    return problems;
  })()`);
}

/** Tabs through `steps` controls; the focus ring of each must contrast 3:1 with what is behind it. */
export async function focusRingProblems(page: Page, steps: number): Promise<string[]> {
  const problems: string[] = [];
  for (let i = 0; i < steps; i++) {
    await page.keyboard.press('Tab');
    const problem = await page.evaluate<string | null>(`(() => {${COLOUR_HELPERS}
      const element = document.activeElement;
      if (!element || element === document.body || element.closest('.xterm')) return null;
      const style = getComputedStyle(element);
      const label = element.tagName.toLowerCase() + '.' + (element.className || '') + ' "' + (element.textContent || '').trim().slice(0, 30) + '"';
      if (style.outlineStyle === 'none' || Number.parseFloat(style.outlineWidth) < 2) return label + ': no focus ring';
      const behind = backgroundOf(element.parentElement);
      const value = ratio(rgba(style.outlineColor).slice(0, 3), behind);
      return value < 3 ? label + ': focus ring ' + value.toFixed(2) + ':1 (' + style.outlineColor + ' on rgb(' + behind.join(', ') + '))' : null;
    })()`);
    if (problem) problems.push(problem);
  }
  return problems;
}
