import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeWatchSource } from '../watch/kube-watch-source.js';
import { KubeApiError } from './kube-api.error.js';
import { kubeConnectionFrom, tokenFile } from './kube-connection.js';
import { HttpStatusError, KubeHttp, query } from './kube-http.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real HTTP server on 127.0.0.1 that records requests and answers by path. */
function fakeApiServer(answer: (request: Seen, response: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push(entry);
      answer(entry, response);
    });
  });
  return { server, seen, url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const kubeconfig = (server: string, user: Record<string, unknown>, cluster: Record<string, unknown> = {}): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'kube-http-')), 'kubeconfig');
  const yaml = JSON.stringify({
    'current-context': 'c',
    contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
    clusters: [{ name: 'k', cluster: { server, ...cluster } }],
    users: [{ name: 'u', user }],
  });
  writeFileSync(path, yaml);
  return path;
};

describe('KubeHttp over a real socket', () => {
  const api = fakeApiServer((request, response) => {
    if (request.url.startsWith('/hang')) return;
    if (request.url.startsWith('/half')) return void response.writeHead(200, { 'content-type': 'application/json' }).write('{"items":');
    if (request.url.startsWith('/missing')) {
      response
        .writeHead(404, { 'content-type': 'application/json', 'retry-after': '3' })
        .end(JSON.stringify({ kind: 'Status', code: 404, reason: 'NotFound', message: 'pods "x" not found' }));
      return;
    }
    if (request.url.includes('watch=true')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a' } } })}\n\n`);
      response.end(`${JSON.stringify({ type: 'MODIFIED', object: { metadata: { name: 'a' } } })}\n`);
      return;
    }
    response.writeHead(request.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: request.body }));
  });
  beforeAll(() => new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => api.server.close(() => resolve())));

  it('sends JSON with our User-Agent and the token of an explicit server, and answers status and body', async () => {
    const http = new KubeHttp(kubeConnectionFrom({ server: `${api.url()}/`, token: 't0k', insecureSkipTlsVerify: false } as never, 'antidote-test'));
    const reply = await http.send({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'ns' } } });
    expect(reply).toEqual({ status: 201, text: JSON.stringify({ echo: '{"metadata":{"name":"ns"}}' }) });
    const request = api.seen.at(-1)!;
    expect(request.headers).toMatchObject({ authorization: 'Bearer t0k', 'user-agent': 'antidote-test', 'content-type': 'application/json' });
  });

  it('sends a merge patch with its content type', async () => {
    const http = new KubeHttp(kubeConnectionFrom({ server: api.url(), insecureSkipTlsVerify: false } as never));
    await http.send({
      method: 'PATCH',
      path: '/api/v1/namespaces/ns',
      body: { metadata: { labels: { a: 'b' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(api.seen.at(-1)).toMatchObject({ method: 'PATCH', body: '{"metadata":{"labels":{"a":"b"}}}' });
    expect(api.seen.at(-1)!.headers['content-type']).toBe('application/merge-patch+json');
    expect(api.seen.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('rejects a non-2xx answer with its status, Status body and Retry-After, which become a KubeApiError', async () => {
    const http = new KubeHttp(kubeConnectionFrom({ server: api.url(), insecureSkipTlsVerify: false } as never));
    const error = await http.send({ method: 'GET', path: '/missing' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(HttpStatusError);
    const { toKubeApiError } = await import('./kube-api.error.js');
    expect(toKubeApiError(error, { verb: 'get', resource: 'pods', namespace: 'ns', name: 'x' })).toMatchObject({
      code: 404,
      reason: 'NotFound',
      retryAfterSeconds: 3,
      statusMessage: 'pods "x" not found',
    });
  });

  it('rejects with the abort reason when the signal fires (a timeout stays a TimeoutError)', async () => {
    const http = new KubeHttp(kubeConnectionFrom({ server: api.url(), insecureSkipTlsVerify: false } as never));
    await expect(http.send({ method: 'GET', path: '/hang', signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' });
    const controller = new AbortController();
    controller.abort();
    await expect(http.send({ method: 'GET', path: '/hang', signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('bounds the whole exchange by timeoutMs, a body that never ends too, and frees the connection', async () => {
    const http = new KubeHttp(kubeConnectionFrom({ server: api.url(), insecureSkipTlsVerify: false } as never));
    await expect(http.send({ method: 'GET', path: '/hang', timeoutMs: 50 })).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect(http.send({ method: 'GET', path: '/half', timeoutMs: 50 })).rejects.toMatchObject({ name: 'TimeoutError' });
    // The abandoned requests' sockets are destroyed, not left to the agent: a later call is answered.
    await expect(http.send({ method: 'GET', path: '/api', timeoutMs: 5000 })).resolves.toMatchObject({ status: 200 });
  });

  it('sends one call after another over one kept-alive connection', async () => {
    let connections = 0;
    const count = (): void => void connections++;
    api.server.on('connection', count);
    try {
      const http = new KubeHttp(kubeConnectionFrom({ server: api.url(), insecureSkipTlsVerify: false } as never));
      for (let i = 0; i < 3; i++) await http.send({ method: 'GET', path: '/api' });
      expect(connections).toBe(1);
    } finally {
      api.server.off('connection', count);
    }
  });

  it('keeps the path prefix of the server URL', async () => {
    const http = new KubeHttp(kubeConnectionFrom({ server: `${api.url()}/prefix/`, insecureSkipTlsVerify: false } as never));
    await http.send({ method: 'GET', path: '/api/v1/pods?limit=1' });
    expect(api.seen.at(-1)!.url).toBe('/prefix/api/v1/pods?limit=1');
  });

  it('sends the credentials of a kubeconfig user: a token file, basic auth', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-token-'));
    writeFileSync(join(dir, 'token'), 'first\n');
    const path = kubeconfig(api.url(), { tokenFile: join(dir, 'token') });
    const http = new KubeHttp(kubeConnectionFrom({ kubeconfigPath: path, insecureSkipTlsVerify: false } as never));
    await http.send({ method: 'GET', path: '/api' });
    expect(api.seen.at(-1)!.headers.authorization).toBe('Bearer first');
    const basic = new KubeHttp(
      kubeConnectionFrom({ kubeconfigPath: kubeconfig(api.url(), { username: 'u', password: 'p' }), insecureSkipTlsVerify: false } as never),
    );
    await basic.send({ method: 'GET', path: '/api' });
    expect(api.seen.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
  });

  it('runs an exec credential plugin through client-node, loaded only for such a user', async () => {
    const credential = JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'from-plugin' } });
    const path = kubeconfig(
      api.url(),
      {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: ['-e', `process.stdout.write(${JSON.stringify(credential)})`],
          interactiveMode: 'Never',
        },
      },
      { 'insecure-skip-tls-verify': true },
    );
    const http = new KubeHttp(kubeConnectionFrom({ kubeconfigPath: path, insecureSkipTlsVerify: false } as never));
    await http.send({ method: 'GET', path: '/api' });
    expect(api.seen.at(-1)!.headers.authorization).toBe('Bearer from-plugin');
  });

  it('streams a watch as JSON lines, skipping blank ones, and ends when the server ends it', async () => {
    const http = new KubeHttp(kubeConnectionFrom({ server: api.url(), insecureSkipTlsVerify: false } as never));
    const source = new KubeWatchSource(http, {
      resource: 'pods',
      namespace: 'ns',
      query: { labelSelector: 'a=b' },
      collectionPath: '/api/v1/namespaces/ns/pods',
      listAll: () => Promise.resolve({ items: [], resourceVersion: '1' }),
    });
    const events: string[] = [];
    await source.watch('7', (type) => events.push(type), new AbortController().signal);
    expect(events).toEqual(['ADDED', 'MODIFIED']);
    expect(api.seen.at(-1)!.url).toBe(
      `/api/v1/namespaces/ns/pods${query({ watch: true, resourceVersion: '7', allowWatchBookmarks: true, labelSelector: 'a=b' })}`,
    );
    const rejected = await source
      .watch(
        '7',
        () => {
          throw new Error('consumer says no');
        },
        new AbortController().signal,
      )
      .catch((error: unknown) => error);
    expect((rejected as Error).message).toBe('consumer says no');
  });

  it('fails a watch the server refuses with a KubeApiError', async () => {
    const http = new KubeHttp(kubeConnectionFrom({ server: api.url(), insecureSkipTlsVerify: false } as never));
    const source = new KubeWatchSource(http, {
      resource: 'pods',
      query: {},
      collectionPath: '/missing',
      listAll: () => Promise.resolve({ items: [], resourceVersion: '1' }),
    });
    await expect(source.watch('1', () => undefined, new AbortController().signal)).rejects.toBeInstanceOf(KubeApiError);
  });
});

describe('kubeConnectionFrom', () => {
  it('says what is wrong with a kubeconfig or a missing cluster', () => {
    expect(() => kubeConnectionFrom({ kubeconfigPath: '/nonexistent/kubeconfig', insecureSkipTlsVerify: false } as never)).toThrow(
      /Cannot load the Kubernetes connection \(kubeconfig \/nonexistent\/kubeconfig\)/,
    );
    const path = join(mkdtempSync(join(tmpdir(), 'kube-bad-')), 'kubeconfig');
    writeFileSync(path, JSON.stringify({ 'current-context': 'c', contexts: [{ name: 'c', context: { cluster: 'gone' } }] }));
    expect(() => kubeConnectionFrom({ kubeconfigPath: path, insecureSkipTlsVerify: false } as never)).toThrow(/names cluster "gone", which it does not define/);
    expect(() => kubeConnectionFrom({ server: 'ftp://127.0.0.1', insecureSkipTlsVerify: false } as never)).toThrow(/neither http nor https/);
    expect(() => kubeConnectionFrom({ insecureSkipTlsVerify: false } as never)).toThrow(/No Kubernetes connection configured/);
  });

  it('reads a token file again once it is a minute old (projected tokens rotate)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'kube-token-')), 'token');
    writeFileSync(path, 'first\n');
    let clock = 1_000_000;
    const token = tokenFile(path, () => clock);
    writeFileSync(path, 'second\n');
    clock += 59_999;
    expect(token()).toBe('first');
    clock += 1;
    expect(token()).toBe('second');
  });

  it('refuses in-cluster outside a cluster', () => {
    const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
    delete process.env.KUBERNETES_SERVICE_HOST;
    try {
      expect(() => kubeConnectionFrom({ inCluster: true, insecureSkipTlsVerify: false } as never)).toThrow(/not running in a cluster/);
    } finally {
      if (saved.host !== undefined) process.env.KUBERNETES_SERVICE_HOST = saved.host;
    }
  });
});
