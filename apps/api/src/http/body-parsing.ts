import type { IncomingMessage } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { GatewayError, GrpcCode } from './gateway.error.js';

/** `application/json`, `application/*+json`, and `text/plain` (a browser's `fetch` with a string body sends that). */
const JSON_TYPES = /^(application\/(?:[\w.+-]+\+)?json|text\/plain)\s*(?:;|$)/i;

const hasBody = (request: IncomingMessage): boolean =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/** A body is read as JSON when its type is JSON or text/plain, or when it names no type (the original read any body as JSON). */
export const readsAsJson = (request: IncomingMessage): boolean => {
  const type = request.headers['content-type'];
  return type === undefined || type.trim() === '' || JSON_TYPES.test(type.trim());
};

/**
 * Bodies are JSON only: any other type (a cross-site HTML form's `application/x-www-form-urlencoded`,
 * `multipart/form-data`…) is answered 415 before anything reads it. Requests without a body pass.
 */
export function jsonOnly(request: Request, response: Response, next: NextFunction): void {
  if (!hasBody(request) || readsAsJson(request)) return next();
  const error = new GatewayError({ code: GrpcCode.InvalidArgument.code, http: 415 }, `unsupported content type "${request.headers['content-type']}": send JSON (application/json or text/plain)`);
  response.status(error.status.http).json(error.body());
}

/** The api's only body parser: JSON, bounded to `maxBodyBytes`; Nest's default parsers (urlencoded among them) are off. */
export function useJsonBodies(app: NestExpressApplication, maxBodyBytes: number): void {
  app.use(jsonOnly);
  app.useBodyParser('json', { limit: maxBodyBytes, type: readsAsJson });
}
