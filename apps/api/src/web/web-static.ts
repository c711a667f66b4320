import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AntidoteConfig } from '@antidote/config';
import { encodedBody, type Encoding, type WebFile, type WebFileSet } from './web-files.js';

/**
 * What the learner's pages may do: scripts, styles and connections (fetch, SSE, the terminal WebSocket)
 * of this origin only; no plug-ins, no inline script, no framing of the UI by other sites. Inline styles
 * are allowed (xterm.js positions its rows with them; guide HTML loses its `style` attributes before it
 * reaches the page); frames for jupyter guides and lesson videos. Images and videos may also come from
 * `mediaSources` (`api.web.mediaSources`, by default any https site: guides link them there).
 */
export function webCsp(mediaSources: readonly string[]): string {
  const media = mediaSources.map((source) => ` ${source}`).join('');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${media}`,
    `media-src 'self'${media}`,
    "font-src 'self'",
    "connect-src 'self'",
    'frame-src http: https:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export const setSecurityHeaders = (response: Response, csp: string): void => {
  response.setHeader('Content-Security-Policy', csp);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
};

/** How often the page renews its lab: a quarter of the idle TTL, between 1 s and 1 min. */
export const keepAliveMsFor = (liveLessonTtlMinutes: number): number =>
  liveLessonTtlMinutes > 0 ? Math.round(Math.min(60_000, Math.max(1000, (liveLessonTtlMinutes * 60_000) / 4))) : 60_000;

/** The encoding to answer with: brotli, else gzip, when the client takes it (`q=0` refuses). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(/\s*;\s*/))
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q))
      .map(([name]) => name.toLowerCase()),
  );
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : undefined;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const ASSET = /^\/assets\/([0-9a-f]{12})\/(.+)$/;

/** Sends one file: 304 when the page has it, else its compressed copy when the client takes one. */
async function sendFile(request: Request, response: Response, file: WebFile, cacheControl: string): Promise<void> {
  response.setHeader('Content-Type', file.type);
  response.setHeader('Cache-Control', cacheControl);
  response.setHeader('ETag', file.etag);
  response.setHeader('Vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === file.etag) {
    response.status(304).end();
    return;
  }
  const encoding = pickEncoding(request.headers['accept-encoding']);
  const encoded = encoding && encodedBody(file, encoding);
  const body = encoded ? await encoded : file.body;
  if (encoded) response.setHeader('Content-Encoding', encoding);
  response.setHeader('Content-Length', String(body.length));
  response.end(body);
}

/**
 * The learner's UI under `/`: `/` and `/labs/` are the page, `/assets/<version>/*` its files and the
 * browser libraries (cached for a year: a new UI has a new version), `/web/config.json` the timings it
 * follows. GET and HEAD only; everything else (`/exp`, ops routes) passes through untouched.
 */
export function webStatic(web: WebFileSet, config: AntidoteConfig): RequestHandler {
  const csp = webCsp(config.api.web.mediaSources);
  const timings = { keepAliveMs: keepAliveMsFor(config.liveLessonTTL), hiddenGraceMs: Math.round(config.api.web.hiddenGraceSeconds * 1000) };
  const index = web.files.get('index.html');
  return (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    const path = request.path;
    const fail = (): void => void (response.headersSent ? response.end() : response.status(500).type('text/plain').send('the file could not be sent\n'));
    if (index && (path === '/' || path === '/labs' || path === '/labs/')) {
      setSecurityHeaders(response, csp);
      return void sendFile(request, response, index, 'no-cache').catch(fail);
    }
    if (path === '/web/config.json') {
      setSecurityHeaders(response, csp);
      response.setHeader('Cache-Control', 'no-store');
      response.json(timings);
      return;
    }
    const asset = ASSET.exec(path);
    const file = asset && asset[2] !== 'index.html' ? web.files.get(asset[2]) : undefined;
    if (!asset || !file) return next();
    setSecurityHeaders(response, csp);
    // Another version (a page of the UI before an upgrade, or another replica's): today's file, not kept.
    void sendFile(request, response, file, asset[1] === web.version ? IMMUTABLE : 'no-cache').catch(fail);
  };
}
