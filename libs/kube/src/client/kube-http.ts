import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import type { KubeConnection } from './kube-connection.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface KubeRequest {
  method: HttpMethod;
  /** Path and query, from the API root (`/api/v1/namespaces?labelSelector=…`). */
  path: string;
  /** Sent as JSON (already serialised objects are not serialised again). */
  body?: unknown;
  /** Content type of the body; `application/json` by default (a merge patch sets its own). */
  contentType?: string;
  /** The caller's cancellation: the request is destroyed and rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * The whole exchange (the answer's headers, and for `send` its body too) within this long, else the
   * request is destroyed and rejects with a TimeoutError: one timer, no AbortController per call.
   */
  timeoutMs?: number;
}

export interface KubeReply {
  status: number;
  /** The body as received (JSON, or text for logs). */
  text: string;
}

/** An answer with a status other than 2xx: what `toKubeApiError` reads (status, the Status body, Retry-After). */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  constructor(
    readonly statusCode: number,
    readonly body: string,
    readonly headers: Record<string, string>,
  ) {
    super(`HTTP ${statusCode}`);
  }
}

/** `?a=1&b=2` from the set values (empty when none). */
export function query(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

const singleHeaders = (headers: IncomingMessage['headers']): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));

/**
 * The wire of the Kubernetes client: JSON over node's HTTP client, through the connection's keep-alive
 * Agent (one TLS session pool for every call and watch), with its credentials, our User-Agent and the
 * caller's abort signal. No generated API classes and no model (de)serialiser: objects go out and come
 * back as the API server writes them (dates are RFC 3339 strings).
 */
export class KubeHttp {
  private readonly transport: typeof http | typeof https;
  /** Where every request goes (host, port, agent, path prefix), parsed once from the server's URL. */
  private readonly target: https.RequestOptions & { path: string };

  constructor(readonly connection: KubeConnection) {
    this.transport = connection.server.startsWith('https:') ? https : http;
    const { protocol, hostname, port, path, auth } = urlToHttpOptions(new URL(connection.server));
    // The TLS server name as node's Agent works it out per request when none is given: the host, none for an address.
    const servername = hostname && !isIP(hostname) ? hostname : '';
    this.target = { protocol, hostname, port, servername, agent: connection.agent, path: path === '/' ? '' : (path ?? ''), ...(auth ? { auth } : {}) };
  }

  /** Sends the request; resolves with any 2xx, rejects with `HttpStatusError` otherwise, or with the abort reason (a timeout: a TimeoutError). */
  async send(request: KubeRequest): Promise<KubeReply> {
    const { response, text } = await this.exchange(request, true);
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) throw new HttpStatusError(status, text, singleHeaders(response.headers));
    return { status, text };
  }

  /**
   * A 2xx response left open for streaming (a watch; `timeoutMs` bounds its headers only); other answers
   * reject as `send` does. The caller consumes or destroys it.
   */
  async stream(request: KubeRequest): Promise<IncomingMessage> {
    const { response } = await this.exchange(request, false);
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return response;
    const { text } = await this.exchange(request, true, response);
    throw new HttpStatusError(status, text, singleHeaders(response.headers));
  }

  private async headers(request: KubeRequest, body: string | undefined): Promise<Record<string, string>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const authorization = await this.connection.authorization();
    if (authorization) headers.Authorization = authorization;
    if (this.connection.userAgent) headers['User-Agent'] = this.connection.userAgent;
    if (body !== undefined) {
      headers['Content-Type'] = request.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    return headers;
  }

  /**
   * One request (or, given `opened`, the rest of that response): its response, and with `readBody` the
   * body as text. The caller's signal and the timeout share one listener and one timer for the whole
   * exchange; either destroys the request and rejects with its reason.
   */
  private async exchange(request: KubeRequest, readBody: boolean, opened?: IncomingMessage): Promise<{ response: IncomingMessage; text: string }> {
    const { signal, timeoutMs } = request;
    const body = opened || request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    const headers = opened ? undefined : await this.headers(request, body);
    // Checked after the await: an abort meanwhile fired no listener of ours.
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const outgoing = headers && this.transport.request({ ...this.target, method: request.method, path: `${this.target.path}${request.path}`, headers });
      let response = opened;
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (error: Error | undefined, text = ''): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (!error) return resolve({ response: response!, text });
        outgoing?.destroy();
        response?.destroy();
        reject(error);
      };
      const onAbort = (): void => settle(abortReason(signal));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => settle(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
        timer.unref();
      }
      const read = (answer: IncomingMessage): void => {
        response = answer;
        if (!readBody) return settle(undefined);
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.once('end', () => settle(undefined, chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')));
        answer.once('error', (error) => settle(signal?.aborted ? abortReason(signal) : error));
      };
      if (!outgoing) return read(opened!);
      outgoing.once('response', read);
      outgoing.once('error', (error) => settle(signal?.aborted ? abortReason(signal) : error));
      outgoing.end(body);
    });
  }
}

/** What the signal was aborted with (a TimeoutError for `AbortSignal.timeout`), as an Error. */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('the request was cancelled', 'AbortError');
}
