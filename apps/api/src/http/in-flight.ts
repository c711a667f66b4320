import type { NextFunction, Request, Response } from 'express';
import { GatewayError, GrpcCode } from './gateway.error.js';

/** Ops routes always answer (probes must see a busy api as alive); event streams have their own per-client cap. */
const uncounted = (path: string): boolean => path === '/healthz' || path === '/readyz' || path === '/metrics' || path.endsWith('/events');

/**
 * A global cap on requests being answered at once: past `max`, 503 with `Retry-After: 1` at once, so a
 * flood queues nowhere (0 = unlimited).
 */
export function inFlightCap(max: number): (request: Request, response: Response, next: NextFunction) => void {
  let active = 0;
  return (request, response, next) => {
    if (max <= 0 || uncounted(request.path)) return next();
    if (active >= max) {
      const error = new GatewayError(GrpcCode.Unavailable, 'Antidote is busy; please try again', undefined, { 'Retry-After': '1' });
      response.status(error.status.http).set(error.headers).json(error.body());
      return;
    }
    active++;
    response.once('close', () => active--);
    next();
  };
}
