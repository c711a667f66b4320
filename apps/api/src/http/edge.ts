import type { Server } from 'node:http';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { AntidoteConfig } from '@antidote/config';
import { useJsonBodies } from './body-parsing.js';
import { canonicalTarget } from './canonical-path.js';
import { ClientIpResolver } from './client-ip.js';
import { clientLimits } from './client-limits.js';
import { originPolicy } from './cors.js';
import { GatewayError, GrpcCode, invalidArgument } from './gateway.error.js';
import { inFlightCap } from './in-flight.js';
import { RequestSite } from './request-site.js';

const logger = new Logger('Edge');

/** Every later step (router included) sees the canonical path; a path with no one meaning is 400. */
function canonicalRequest(request: Request, response: Response, next: NextFunction): void {
  const target = canonicalTarget(request.url);
  if (target === undefined) {
    response.status(400).json(invalidArgument('malformed request path').body());
    return;
  }
  request.url = target;
  request.originalUrl = target;
  next();
}

const hostCheck =
  (site: RequestSite) =>
  (request: Request, response: Response, next: NextFunction): void => {
    if (site.hostAllowed(request)) return next();
    const error = new GatewayError(
      GrpcCode.PermissionDenied,
      `this api does not answer to host ${String(request.headers.host).slice(0, 200)} (api.allowedHosts)`,
    );
    response.status(error.status.http).json(error.body());
  };

/** A client must send its headers, then its whole request, in bounded time (Node answers 408 and closes). */
function boundRequestTimes(server: Server, api: AntidoteConfig['api']): void {
  server.headersTimeout = api.headersTimeoutSeconds * 1000;
  server.requestTimeout = api.requestTimeoutSeconds * 1000;
  // How often Node looks for overdue requests (30 s by default); read when the server starts listening.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(1000, server.headersTimeout);
}

/** What the configuration leaves open that is closed by default: each logged as INSECURE at start. */
export function insecureSettings(api: AntidoteConfig['api']): string[] {
  const insecure: [boolean, string][] = [
    [api.corsOrigins.includes('*'), 'api.corsOrigins has "*": any web page a learner visits may create and delete labs with their address'],
    [api.allowedHosts.includes('*'), 'api.allowedHosts has "*": a web page may reach this api through a DNS name of its own (DNS rebinding)'],
    [api.exposeDevicePasswords, 'api.exposeDevicePasswords is on: anyone holding a lab id reads its device logins'],
  ];
  return insecure.filter(([on]) => on).map(([, message]) => `INSECURE: ${message}`);
}

/**
 * The api's HTTP edge, in order: one canonical path (the router matches it case-sensitively), the Host
 * check, the origin policy (CORS first, so every later answer is readable by a page allowed to ask), the
 * per-client rate and in-flight caps, JSON bodies only, then the global in-flight cap once the body is in.
 * Answers the RequestSite, which the terminal socket checks its upgrades with too.
 */
export function useEdge(app: NestExpressApplication, config: AntidoteConfig): RequestSite {
  const { api } = config;
  const resolver = new ClientIpResolver(api.trustedProxies, api.ipv6ClientPrefix);
  const site = new RequestSite(api.allowedHosts, api.host, resolver);
  // Nest's routes are added to this router later (at listen): exact, case-sensitive matches of the canonical path.
  const router = (app.getHttpAdapter().getInstance() as unknown as { router: { caseSensitive: boolean; strict: boolean } }).router;
  router.caseSensitive = true;
  router.strict = true;
  app.use(canonicalRequest);
  app.use(hostCheck(site));
  app.use(originPolicy(api.corsOrigins, site));
  app.use(clientLimits(api, resolver));
  useJsonBodies(app, api.maxBodyBytes);
  app.use(inFlightCap(api.maxInFlightRequests));
  boundRequestTimes(app.getHttpServer(), api);
  for (const warning of insecureSettings(api)) logger.warn(warning);
  return site;
}
