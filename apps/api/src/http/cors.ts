import type { NextFunction, Request, Response } from 'express';
import { GatewayError, GrpcCode } from './gateway.error.js';

/** What the original's gateway allowed on a preflight. */
const ALLOW_HEADERS = 'Content-Type,Accept';
const ALLOW_METHODS = 'GET,HEAD,POST,PUT,DELETE';
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Admin routes take a bearer token, never from a browser page: no CORS there. */
const isCorsRoute = (path: string): boolean => path.startsWith('/exp/') && !path.startsWith('/exp/admin/');

/**
 * CORS on `/exp` as the original's gateway did it (every answer carries `Access-Control-Allow-Origin`;
 * a preflight is answered with the allowed headers and methods), limited to `api.corsOrigins` (`*` =
 * any origin). A write from an origin not in the list is refused outright: a `text/plain` POST needs no
 * preflight, so the browser alone would not stop it.
 */
export function corsMiddleware(origins: readonly string[]): (request: Request, response: Response, next: NextFunction) => void {
  const any = origins.includes('*');
  const allowed = new Set(origins.map((origin) => origin.replace(/\/+$/, '').toLowerCase()));
  return (request, response, next) => {
    const origin = request.headers.origin;
    if (!origin || !isCorsRoute(request.path)) return next();
    if (!any) response.vary('Origin');
    if (!any && !allowed.has(origin.toLowerCase())) {
      if (SAFE_METHODS.has(request.method)) return next();
      const error = new GatewayError(GrpcCode.PermissionDenied, `origin ${origin} is not allowed (api.corsOrigins)`);
      response.status(error.status.http).json(error.body());
      return;
    }
    response.setHeader('Access-Control-Allow-Origin', any ? '*' : origin);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      response.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
      response.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
      response.setHeader('Access-Control-Max-Age', '600');
      response.status(204).end();
      return;
    }
    next();
  };
}
