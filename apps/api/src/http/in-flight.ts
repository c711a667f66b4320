import type { NextFunction, Request, Response } from 'express';
import { isOpsPath, isStreamPath } from './edge-paths.js';
import { GatewayError, GrpcCode } from './gateway.error.js';

/**
 * A global cap on requests being answered at once, counted from the moment a request's body is in (a
 * client that never finishes its body holds its own per-client slot, never one of these): past `max`, 503
 * with `Retry-After: 1` at once, so a flood queues nowhere (0 = unlimited). Ops routes and event streams
 * are not counted.
 */
export function inFlightCap(max: number): (request: Request, response: Response, next: NextFunction) => void {
  let active = 0;
  return (request, response, next) => {
    if (max <= 0 || isOpsPath(request.path) || isStreamPath(request.path)) return next();
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
