import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { GatewayError, GrpcCode } from './gateway.error.js';

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
