import { z } from 'zod';
import { BUILD_INFO } from '../curriculum/build-info.js';
import { API_ROUTES, errorsOf, type ApiRoute } from './api-routes.js';
import * as exp from './exp-responses.schema.js';

type JsonSchema = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid argument: a path, query or body field (named in details) is wrong, or the body is malformed',
  401: 'No "Authorization: Bearer <admin token>"',
  403: 'Not allowed (a wrong admin token, admin routes disabled, not the owner, a write from an origin not in api.corsOrigins, or a Host the api does not answer to)',
  404: 'Not found',
  409: 'Failed precondition (busy, or failed)',
  413: 'Request body too large',
  415: 'Unsupported content type (application/json, or text/plain holding a JSON object)',
  429: 'Too many requests, or too many at once, from this address (Retry-After says when to try again)',
  500: 'Internal error',
  503: 'Busy or at capacity (Retry-After when busy)',
};

/** The response schemas named in components (with the original's definition names), in one registry. */
function componentRegistry(): { registry: z.core.$ZodRegistry<{ id: string }>; idOf: Map<z.ZodType, string> } {
  const registry = z.registry<{ id: string }>();
  const idOf = new Map<z.ZodType, string>();
  for (const [name, schema] of Object.entries(exp)) {
    if (!(schema instanceof z.ZodType)) continue;
    registry.add(schema, { id: name });
    idOf.set(schema, name);
  }
  return { registry, idOf };
}

/** A standalone JSON schema (request bodies and parameters are inlined, as clients and the fuzz test read them). */
const inline = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

function parametersOf(route: ApiRoute): JsonSchema[] {
  const from = (schema: z.ZodObject | undefined, where: 'path' | 'query'): JsonSchema[] => {
    if (!schema) return [];
    const json = inline(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    return Object.entries(json.properties ?? {}).map(([name, property]) => {
      const { description, ...rest } = property;
      return { name, in: where, required: where === 'path' || (json.required ?? []).includes(name), ...(description ? { description } : {}), schema: rest };
    });
  };
  return [...from(route.params, 'path'), ...from(route.query, 'query')];
}

function successOf(route: ApiRoute, ref: (schema: z.ZodType) => JsonSchema): JsonSchema {
  const ok = route.ok;
  if ('json' in ok) return { description: 'OK', content: { 'application/json': { schema: ref(ok.json) } } };
  if ('text' in ok) return { description: 'OK', content: { [ok.text]: { schema: { type: ok.text.includes('json') ? 'object' : 'string' } } } };
  const names = Object.keys(ok.events);
  return {
    description: `An event stream: \`event: <${names.join('|')}>\` and \`data: <JSON>\` per event (schemas in x-events)`,
    content: {
      'text/event-stream': {
        schema: { type: 'string' },
        'x-events': Object.fromEntries(Object.entries(ok.events).map(([name, schema]) => [name, ref(schema)])),
      },
    },
  };
}

function operationOf(route: ApiRoute, ref: (schema: z.ZodType) => JsonSchema): JsonSchema {
  const parameters = parametersOf(route);
  const error = ref(exp.runtimeError);
  const responses: Record<string, JsonSchema> = { 200: successOf(route, ref) };
  for (const status of errorsOf(route)) responses[status] = { description: STATUS_TEXT[status] ?? 'Error', content: { 'application/json': { schema: error } } };
  for (const [status, schema] of Object.entries(route.alsoAnswers ?? {}))
    responses[status] = { description: 'Not ready', content: { 'application/json': { schema: ref(schema) } } };
  if (!route.ops) responses.default = { description: 'An error, in the gateway shape', content: { 'application/json': { schema: error } } };
  return {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: inline(route.body, 'input') } } } } : {}),
    ...(route.admin ? { security: [{ adminToken: [] }] } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of every route in API_ROUTES, its schemas generated from zod (`z.toJSONSchema`). */
export function openApiDocument(routes: readonly ApiRoute[] = API_ROUTES): JsonSchema {
  const { registry, idOf } = componentRegistry();
  const uri = (id: string): string => `#/components/schemas/${id}`;
  const generated = z.toJSONSchema(registry, { io: 'output', uri }).schemas as Record<string, JsonSchema>;
  const schemas = Object.fromEntries(Object.entries(generated).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]));
  const ref = (schema: z.ZodType): JsonSchema => {
    const id = idOf.get(schema);
    return id ? { $ref: uri(id) } : inline(schema, 'output');
  };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operationOf(route, ref);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Antidote API',
      version: BUILD_INFO.version,
      description: "The /exp API of NRE Labs' Antidote, plus ops routes. Errors use the grpc-gateway shape `{error, code, message, details}`.",
    },
    paths,
    components: { schemas, securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'api.adminToken' } } },
  };
}
