import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { ClientIpResolver } from './client-ip.js';
import { exhausted, GatewayError, GrpcCode } from './gateway.error.js';
import { RateLimiter } from './rate-limiter.js';

/** The learner's address of a request (see ClientIpResolver), kept on the request by ClientIpMiddleware. */
export const clientIpOf = (request: Request): string => (request as Request & { clientIp?: string }).clientIp ?? request.socket.remoteAddress ?? 'unknown';

/** Resolves the client address once per request, then applies the per-client rate limit. */
@Injectable()
export class ClientIpMiddleware implements NestMiddleware {
  private readonly resolver: ClientIpResolver;
  private readonly limiter: RateLimiter;

  constructor(@InjectConfig() config: AntidoteConfig) {
    this.resolver = new ClientIpResolver(config.api.trustedProxies);
    this.limiter = new RateLimiter(config.api.rateLimitPerMinute);
  }

  use(request: Request, response: Response, next: NextFunction): void {
    const ip = this.resolver.resolve(request.socket.remoteAddress, request.headers['x-forwarded-for']);
    (request as Request & { clientIp?: string }).clientIp = ip;
    const wait = this.limiter.take(ip);
    if (wait > 0) {
      const error = exhausted('Too many requests from this address; slow down', wait);
      response.status(error.status.http).set(error.headers).json(error.body());
      return;
    }
    next();
  }
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
const bearerOf = (header: string | undefined): string | undefined => /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim();

/** Admin routes: `Authorization: Bearer <api.adminToken>`, compared in constant time; no token configured = no admin routes. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(@InjectConfig() config: AntidoteConfig) {
    this.expected = config.api.adminToken ? digest(config.api.adminToken) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) throw new GatewayError(GrpcCode.PermissionDenied, 'admin routes are disabled (no api.adminToken configured)');
    const header = context.switchToHttp().getRequest<Request>().headers.authorization;
    if (!bearerOf(header)) throw new GatewayError(GrpcCode.Unauthenticated, 'admin routes need "Authorization: Bearer <token>"');
    if (!this.isAdmin(header)) throw new GatewayError(GrpcCode.PermissionDenied, 'invalid admin token');
    return true;
  }

  /** Whether an `Authorization` header carries the admin token (never, when none is configured). */
  isAdmin(authorization: string | undefined): boolean {
    const token = bearerOf(authorization);
    return !!this.expected && !!token && timingSafeEqual(digest(token), this.expected);
  }
}
