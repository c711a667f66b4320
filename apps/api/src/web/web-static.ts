import { join } from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AntidoteConfig } from '@antidote/config';
import type { WebAssets } from './web-assets.js';

/**
 * What the learner's pages may do: scripts, styles and connections (fetch, SSE, the terminal WebSocket)
 * of this origin only; no plug-ins, no inline script, no framing of the UI by other sites. Inline styles
 * are allowed (xterm.js positions its rows with them); frames only for jupyter guides (the lab's host).
 */
export const WEB_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  'frame-src http: https:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const securityHeaders = (response: Response): void => {
  response.setHeader('Content-Security-Policy', WEB_CSP);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
};

/** How often the page renews its lab: a quarter of the idle TTL, between 1 s and 1 min. */
export const keepAliveMsFor = (liveLessonTtlMinutes: number): number =>
  liveLessonTtlMinutes > 0 ? Math.round(Math.min(60_000, Math.max(1000, (liveLessonTtlMinutes * 60_000) / 4))) : 60_000;

/**
 * The learner's UI under `/`: `/` and `/labs/` are the page, `/assets/*` its files, `/vendor/*` the browser
 * libraries, `/web/config.json` the timings it follows. GET and HEAD only; everything else (`/exp`, ops
 * routes) passes through untouched.
 */
export function webStatic(assets: WebAssets, config: AntidoteConfig): RequestHandler {
  const index = join(assets.publicDir, 'index.html');
  const web = { keepAliveMs: keepAliveMsFor(config.liveLessonTTL), hiddenGraceMs: Math.round(config.api.web.hiddenGraceSeconds * 1000) };
  return (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    const path = request.path;
    if (path === '/' || path === '/labs' || path === '/labs/') {
      securityHeaders(response);
      response.setHeader('Cache-Control', 'no-cache');
      return response.sendFile(index);
    }
    if (path === '/web/config.json') {
      securityHeaders(response);
      response.setHeader('Cache-Control', 'no-store');
      response.json(web);
      return;
    }
    if (path.startsWith('/assets/')) {
      // `root` confines the file to the folder (`..` is refused); dot files are not served.
      securityHeaders(response);
      return response.sendFile(path.slice('/assets/'.length), { root: assets.publicDir, dotfiles: 'deny', maxAge: 0 }, (error) => void (error && !response.headersSent && next()));
    }
    if (path.startsWith('/vendor/')) {
      const file = assets.vendor.get(path.slice('/vendor/'.length));
      if (!file) return next();
      securityHeaders(response);
      return response.sendFile(file, { maxAge: '1h' });
    }
    next();
  };
}
