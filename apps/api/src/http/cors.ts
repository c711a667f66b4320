import type { NextFunction, Request, Response } from 'express';
import { isCorsPath } from './edge-paths.js';
import { GatewayError, GrpcCode } from './gateway.error.js';
import type { RequestSite } from './request-site.js';

/** What the original's gateway allowed on a preflight. */
const ALLOW_HEADERS = 'Content-Type,Accept';
const ALLOW_METHODS = 'GET,HEAD,POST,PUT,DELETE';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const originOf = (value: string): string | undefined => {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
};

/**
 * Who may call the api from a browser. Same origin by default: a page of the api's own origin (as seen
 * through `api.trustedProxies`, so a page behind a path-prefix proxy is one) may write anywhere; the
 * origins of `api.corsOrigins` (`*` = any) may call `/exp` — their answers carry
 * `Access-Control-Allow-Origin` and their preflights are answered as the original's gateway did — and
 * any other origin may not write at all (403): a `text/plain` POST or an HTML form needs no preflight, so
 * the browser alone would not stop it. A request without Origin (curl, antictl) is not a browser's.
 */
export function originPolicy(corsOrigins: readonly string[], site: RequestSite): (request: Request, response: Response, next: NextFunction) => void {
  const any = corsOrigins.includes('*');
  const listed = new Set(corsOrigins.map(originOf).filter((origin) => origin !== undefined));
  return (request, response, next) => {
    const header = request.headers.origin;
    if (header === undefined) return next();
    const origin = originOf(header);
    const cors = isCorsPath(request.path);
    const mayCall = cors && (any || (origin !== undefined && listed.has(origin)));
    if (cors && !any) response.vary('Origin');
    if (mayCall) response.setHeader('Access-Control-Allow-Origin', any ? '*' : header);
    if (mayCall && request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      response.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
      response.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
      response.setHeader('Access-Control-Max-Age', '600');
      response.status(204).end();
      return;
    }
    const own = origin !== undefined && origin === site.ownOrigin(request);
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    if (mayCall || own || (READ_METHODS.has(request.method) && !preflight)) return next();
    const error = new GatewayError(
      GrpcCode.PermissionDenied,
      `origin ${header.slice(0, 200)} may not ${preflight ? 'call' : 'write to'} this api (api.corsOrigins)`,
    );
    response.status(error.status.http).json(error.body());
  };
}
