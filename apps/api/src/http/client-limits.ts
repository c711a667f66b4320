import type { NextFunction, Request, Response } from 'express';
import type { ClientIpResolver } from './client-ip.js';
import { isOpsPath, isStreamPath } from './edge-paths.js';
import { exhausted } from './gateway.error.js';
import { PerKeySlots } from './per-key-slots.js';
import { RateLimiter } from './rate-limiter.js';

interface RequestClient {
  /** The learner's address (ClientIpResolver.resolve). */
  ip: string;
  /** Who every per-client limit counts (ClientIpResolver.keyOf: the address, or an IPv6 client's prefix). */
  key: string;
}

const clients = new WeakMap<Request, RequestClient>();

/** The client of a request, resolved once by `clientLimits`. */
export const clientOf = (request: Request): RequestClient => {
  const address = request.socket.remoteAddress ?? 'unknown';
  return clients.get(request) ?? { ip: address, key: address };
};

export interface ClientLimits {
  rateLimitPerMinute: number;
  /** 0 = no cap. */
  maxInFlightPerClient: number;
}

/**
 * Resolves the client of every request, then applies the per-client limits before anything reads the
 * body: the rate (429 with Retry-After) and the requests it has in flight (429 at once, so one client's
 * slow uploads hold its own slots only). Ops routes are neither; event streams have their own cap.
 */
export function clientLimits(limits: ClientLimits, resolver: ClientIpResolver): (request: Request, response: Response, next: NextFunction) => void {
  const rate = new RateLimiter(limits.rateLimitPerMinute);
  const inFlight = new PerKeySlots(limits.maxInFlightPerClient || Number.POSITIVE_INFINITY);
  const refuse = (response: Response, message: string, wait: number): void => {
    const error = exhausted(message, wait);
    response.status(error.status.http).set(error.headers).json(error.body());
  };
  return (request, response, next) => {
    const ip = resolver.resolve(request.socket.remoteAddress, request.headers['x-forwarded-for']);
    const client = { ip, key: resolver.keyOf(ip) };
    clients.set(request, client);
    if (isOpsPath(request.path)) return next();
    const wait = rate.take(client.key);
    if (wait > 0) return refuse(response, 'Too many requests from this address; slow down', wait);
    if (isStreamPath(request.path)) return next();
    if (!inFlight.take(client.key)) return refuse(response, `Too many requests in flight from this address (at most ${limits.maxInFlightPerClient})`, 1);
    response.once('close', () => inFlight.release(client.key));
    next();
  };
}
