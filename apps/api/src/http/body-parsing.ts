import type { IncomingMessage } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { GatewayError, GrpcCode } from './gateway.error.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
/** What a browser's `fetch` with a string body and no type sends (antidote-web does): read only when it is a JSON object. */
const TEXT_TYPE = /^text\/plain\s*(?:;|$)/i;

const typeOf = (request: IncomingMessage): string => (request.headers['content-type'] ?? '').trim();
const hasBody = (request: IncomingMessage): boolean => request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
const isText = (request: IncomingMessage): boolean => TEXT_TYPE.test(typeOf(request));
export const readsAsJson = (request: IncomingMessage): boolean => JSON_TYPE.test(typeOf(request)) || isText(request);

const unsupported = (response: Response, message: string): void => {
  const error = new GatewayError({ code: GrpcCode.InvalidArgument.code, http: 415 }, message);
  response.status(error.status.http).json(error.body());
};

const isObject = (body: unknown): boolean => typeof body === 'object' && body !== null && !Array.isArray(body);

/**
 * Bodies are JSON only: `application/json`, or `text/plain` that is a JSON object. Any other type (a
 * cross-site HTML form's `application/x-www-form-urlencoded`, `multipart/form-data`…) and a body with no
 * type are answered 415 before anything reads them; a `text/plain` body that is not a JSON object
 * (`a=1`, a `text/plain` form's `name=value` lines) is 415 once read. Requests without a body pass.
 */
export function jsonOnly(request: Request, response: Response, next: NextFunction): void {
  if (!hasBody(request) || readsAsJson(request)) return next();
  const type = request.headers['content-type'];
  unsupported(response, `unsupported content type ${type === undefined ? '(none)' : `"${type.slice(0, 100)}"`}: send JSON (application/json)`);
}

const TEXT_NOT_OBJECT = 'a text/plain body must be a JSON object: send JSON (application/json)';

function textPlainIsObject(error: unknown, request: Request, response: Response, next: NextFunction): void {
  if ((error as { type?: string }).type === 'entity.parse.failed' && isText(request)) return unsupported(response, TEXT_NOT_OBJECT);
  next(error);
}

function textPlainParsed(request: Request, response: Response, next: NextFunction): void {
  if (hasBody(request) && isText(request) && !isObject(request.body)) return unsupported(response, TEXT_NOT_OBJECT);
  next();
}

/** The api's only body parser: JSON, bounded to `maxBodyBytes`; Nest's default parsers (urlencoded among them) are off. */
export function useJsonBodies(app: NestExpressApplication, maxBodyBytes: number): void {
  app.use(jsonOnly);
  app.useBodyParser('json', { limit: maxBodyBytes, type: readsAsJson });
  app.use(textPlainIsObject, textPlainParsed);
}
