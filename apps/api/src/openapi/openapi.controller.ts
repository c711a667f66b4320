import { Controller, Get } from '@nestjs/common';
import { z } from 'zod';
import { liveLessonRequestSchema, sessionRequestSchema } from '../live-lessons/live-lesson.dto.js';
import { BUILD_INFO } from '../curriculum/build-info.js';

interface Route {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  summary: string;
  body?: z.ZodType;
  query?: string[];
  admin?: boolean;
  stream?: boolean;
}

/** Every route the api serves; the document below is generated from it. */
export const ROUTES: Route[] = [
  { method: 'post', path: '/exp/livesession', summary: 'Create a live session (body: {}; other fields are ignored)', body: sessionRequestSchema },
  { method: 'get', path: '/exp/livesession/{id}', summary: 'A live session' },
  { method: 'post', path: '/exp/livelesson', summary: 'Request a live lesson, or the id of the existing one (changes its stage, or keeps it alive)', body: liveLessonRequestSchema },
  { method: 'get', path: '/exp/livelesson/{id}', summary: 'A live lesson (expLiveLesson, plus FailureReason and PhaseTimes)' },
  { method: 'delete', path: '/exp/livelesson/{id}', summary: 'Kill a live lesson' },
  { method: 'get', path: '/exp/livelesson/{id}/events', summary: 'Server-sent events of status changes until READY, an error or deletion', stream: true },
  { method: 'get', path: '/exp/lesson', summary: 'Lessons (optional ?Category=)', query: ['Category'] },
  { method: 'get', path: '/exp/lesson/{slug}', summary: 'A lesson' },
  { method: 'get', path: '/exp/lesson/{slug}/prereqs', summary: 'All prerequisites of a lesson, transitively' },
  { method: 'get', path: '/exp/collection', summary: 'Collections' },
  { method: 'get', path: '/exp/collection/{slug}', summary: 'A collection with its lessons' },
  { method: 'get', path: '/exp/image', summary: 'Images' },
  { method: 'get', path: '/exp/image/{slug}', summary: 'An image' },
  { method: 'get', path: '/exp/curriculum', summary: 'The curriculum record' },
  { method: 'get', path: '/exp/antidoteinfo', summary: 'Build and curriculum versions' },
  { method: 'get', path: '/exp/admin/livelessons', summary: 'All live lessons', admin: true },
  { method: 'get', path: '/exp/admin/livesessions', summary: 'All live sessions', admin: true },
  { method: 'delete', path: '/exp/admin/livelesson/{id}', summary: 'Kill any live lesson', admin: true },
  { method: 'delete', path: '/exp/admin/livesession/{id}', summary: 'Kill a session and its live lessons', admin: true },
  { method: 'put', path: '/exp/admin/livesession/{id}/persistence', summary: 'Make a session persistent (its live lessons never expire)', body: z.object({ persistent: z.boolean() }).strict(), admin: true },
  { method: 'get', path: '/healthz', summary: 'Liveness' },
  { method: 'get', path: '/readyz', summary: 'Readiness (database, NATS)' },
  { method: 'get', path: '/metrics', summary: 'Prometheus metrics' },
  { method: 'get', path: '/exp/openapi.json', summary: 'This document' },
];

const errorSchema = { type: 'object', properties: { error: { type: 'string' }, code: { type: 'integer' }, message: { type: 'string' }, details: { type: 'array', items: {} } } };

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    const parameters = [
      ...[...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } })),
      ...(route.query ?? []).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
    ];
    paths[route.path] ??= {};
    paths[route.path][route.method] = {
      summary: route.summary,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(route.body, { io: 'input' }) } } } } : {}),
      ...(route.admin ? { security: [{ adminToken: [] }] } : {}),
      responses: {
        200: { description: 'OK', content: { [route.stream ? 'text/event-stream' : 'application/json']: {} } },
        default: { description: 'Error in the gateway shape', content: { 'application/json': { schema: errorSchema } } },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Antidote API', version: BUILD_INFO.version },
    paths,
    components: { securitySchemes: { adminToken: { type: 'http', scheme: 'bearer' } } },
  };
}

@Controller('exp')
export class OpenApiController {
  private readonly document = openApiDocument();

  @Get('openapi.json')
  openapi(): Record<string, unknown> {
    return this.document;
  }
}
