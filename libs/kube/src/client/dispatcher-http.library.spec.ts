import { ApiException, CoreV1Api, Observable, type RequestContext, type ResponseContext } from '@kubernetes/client-node';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatcherHttpLibrary, flatHeaders } from './dispatcher-http.library.js';
import { kubeConfigFrom } from './kube-config.factory.js';

describe('flatHeaders', () => {
  it('lower-cases names, joins repeated values and keeps empty ones', () => {
    expect(flatHeaders({ 'Content-Type': 'application/json', 'set-cookie': ['a=1', 'b=2'], 'x-empty': undefined })).toEqual({
      'content-type': 'application/json',
      'set-cookie': 'a=1, b=2',
      'x-empty': '',
    });
  });
});

describe('DispatcherHttpLibrary', () => {
  let server: Server;
  let seen: { method?: string; url?: string; contentType?: string; body: string }[];
  let core: CoreV1Api;

  beforeAll(async () => {
    seen = [];
    server = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, contentType: request.headers['content-type'], body });
        const refused = body.includes('taken');
        response.writeHead(refused ? 409 : 201, { 'content-type': 'application/json' });
        response.end(JSON.stringify(refused ? { kind: 'Status', code: 409, reason: 'AlreadyExists', message: 'namespaces "taken" already exists' } : { ...JSON.parse(body || '{}'), status: { phase: 'Active' } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // An http server: client-node then builds an Agent (verification off), which this library sends through.
    core = kubeConfigFrom({ server: `http://127.0.0.1:${port}` } as never, 'antidote-test').kubeConfig.makeApiClient(CoreV1Api);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the method, path, query, headers and body, and hands back the parsed answer', async () => {
    const created = await core.createNamespace({ body: { metadata: { name: 'lab' } }, dryRun: 'All' }, { httpApi: dispatcherHttpLibrary });
    expect(created).toMatchObject({ metadata: { name: 'lab' }, status: { phase: 'Active' } });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/v1/namespaces?dryRun=All', contentType: 'application/json' });
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ metadata: { name: 'lab' } });
  });

  it('answers an error status as client-node does (ApiException with code and body)', async () => {
    const refused = core.createNamespace({ body: { metadata: { name: 'taken' } } }, { httpApi: dispatcherHttpLibrary });
    await expect(refused).rejects.toBeInstanceOf(ApiException);
    await expect(refused).rejects.toMatchObject({ code: 409, body: expect.stringContaining('AlreadyExists') });
  });

  it('stops on the request signal', async () => {
    const aborted = core.readNamespace({ name: 'lab' }, { httpApi: dispatcherHttpLibrary, middleware: [
        {
          pre: (context: RequestContext) => (context.setSignal(AbortSignal.abort(new Error('stopped'))), new Observable(Promise.resolve(context))),
          post: (context: ResponseContext) => new Observable(Promise.resolve(context)),
        },
      ],
      middlewareMergeStrategy: 'append',
    });
    await expect(aborted).rejects.toThrow(/stopped/);
  });
});
