import type { IncomingMessage } from 'node:http';
import type { ResourceRegistry, ResourceType } from './resources.js';
import { badRequest } from './status.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** A resource request, resolved against the registry. */
export interface ResourceRequest {
  type: ResourceType;
  group: string;
  version: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  verb: Verb;
  query: URLSearchParams;
}

/** Where a path points: discovery, a resource request, or nothing we serve. */
export type Route = { kind: 'discovery'; path: string } | { kind: 'resource'; request: ResourceRequest } | { kind: 'unknown'; plural?: string; group: string };

function verbOf(method: string, name: string | undefined, query: URLSearchParams): Verb {
  const watch = query.get('watch') === 'true' || query.get('watch') === '1';
  switch (method) {
    case 'GET':
      return name ? 'get' : watch ? 'watch' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return name ? 'delete' : 'deletecollection';
    default:
      throw badRequest(`method ${method} is not supported`);
  }
}

export function route(method: string, url: URL, registry: ResourceRegistry): Route {
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api') {
    if (segments.length <= 2) return { kind: 'discovery', path: url.pathname };
    [group, version, rest] = ['', segments[1], segments.slice(2)];
  } else if (segments[0] === 'apis') {
    if (segments.length <= 3) return { kind: 'discovery', path: url.pathname };
    [group, version, rest] = [segments[1], segments[2], segments.slice(3)];
  } else {
    return { kind: 'discovery', path: url.pathname };
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3 && registry.find(group, version, rest[2])?.namespaced) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource] = rest;
  const type = plural ? registry.find(group, version, plural) : undefined;
  if (!type) return { kind: 'unknown', plural, group };
  return {
    kind: 'resource',
    request: { type, group, version, namespace, name, subresource, verb: verbOf(method, name, url.searchParams), query: url.searchParams },
  };
}

const MAX_BODY = 8 * 1024 * 1024;

/** The request's body as text (events, not an async iterator: this runs for every write). Past MAX_BODY the request is destroyed and this rejects with a 400. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) return void chunks.push(chunk);
      reject(badRequest('request body too large'));
      request.destroy();
    });
    request.once('end', () => resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    request.once('error', reject);
  });
}
