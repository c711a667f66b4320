import { Readable } from 'node:stream';
import { IsomorphicFetchHttpLibrary, Observable, ResponseContext, type HttpLibrary, type RequestContext } from '@kubernetes/client-node';

type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

/** Response headers as client-node reads them: lower-case names, repeated ones joined. */
export const flatHeaders = (headers: Record<string, string | string[] | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : (value ?? '')]));

/**
 * client-node's HTTP library, minus WHATWG fetch: a call goes through the Agent client-node set up for
 * the cluster (its TLS settings and connection pool, see kube-config.factory.ts) with undici's
 * `Dispatcher.request`, which builds no Request, Headers or web streams per call — in a burst of lessons
 * fetch's per-call machinery was about a third of the scheduler's CPU. Same method, URL, headers, body
 * and abort signal; a call without an Agent (plain http, no TLS settings) or with a form body goes
 * through fetch as before.
 */
export class DispatcherHttpLibrary implements HttpLibrary {
  private readonly fetch = new IsomorphicFetchHttpLibrary();

  send(request: RequestContext): Observable<ResponseContext> {
    const dispatcher = request.getDispatcher();
    const body = request.getBody();
    if (!dispatcher || (body !== undefined && typeof body !== 'string')) return this.fetch.send(request);
    return new Observable(this.sendWith(dispatcher, request, body));
  }

  private async sendWith(dispatcher: Dispatcher, request: RequestContext, body: string | undefined): Promise<ResponseContext> {
    const url = new URL(request.getUrl());
    const response = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: request.getHttpMethod(),
      headers: request.getHeaders(),
      ...(body !== undefined ? { body } : {}),
      ...(request.getSignal() ? { signal: request.getSignal() } : {}),
    });
    return new ResponseContext(response.statusCode, flatHeaders(response.headers), {
      text: () => response.body.text(),
      binary: async () => Buffer.from(await response.body.arrayBuffer()),
      stream: () => Readable.toWeb(response.body) as ReadableStream<Uint8Array>,
    });
  }
}

/** One per process: it holds no state of its own. */
export const dispatcherHttpLibrary = new DispatcherHttpLibrary();
