import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
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
  signal?: AbortSignal;
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

  constructor(readonly connection: KubeConnection) {
    this.transport = connection.server.startsWith('https:') ? https : http;
  }

  /** Sends the request; resolves with any 2xx, rejects with `HttpStatusError` otherwise, or with the abort reason. */
  async send(request: KubeRequest): Promise<KubeReply> {
    const response = await this.open(request);
    const text = await readText(response, request.signal);
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) throw new HttpStatusError(status, text, singleHeaders(response.headers));
    return { status, text };
  }

  /** A 2xx response left open for streaming (a watch); other answers reject as `send` does. The caller consumes or destroys it. */
  async stream(request: KubeRequest): Promise<IncomingMessage> {
    const response = await this.open(request);
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return response;
    throw new HttpStatusError(status, await readText(response, request.signal), singleHeaders(response.headers));
  }

  private async open(request: KubeRequest): Promise<IncomingMessage> {
    const { signal } = request;
    const headers: Record<string, string> = { Accept: 'application/json' };
    const authorization = await this.connection.authorization();
    // Checked after the await: an abort meanwhile fired no listener of ours.
    signal?.throwIfAborted();
    if (authorization) headers.Authorization = authorization;
    if (this.connection.userAgent) headers['User-Agent'] = this.connection.userAgent;
    const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    if (body !== undefined) {
      headers['Content-Type'] = request.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    return new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = this.transport.request(`${this.connection.server}${request.path}`, { method: request.method, headers, agent: this.connection.agent });
      const onAbort = (): void => {
        outgoing.destroy();
        reject(abortReason(signal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      outgoing.once('response', (response) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(response);
      });
      outgoing.once('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(signal?.aborted ? abortReason(signal) : error);
      });
      outgoing.end(body);
    });
  }
}

/** The whole body as text; an abort meanwhile rejects with the abort reason (a timeout stays a TimeoutError). */
function readText(response: IncomingMessage, signal?: AbortSignal): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    if (signal?.aborted) {
      response.destroy();
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      response.destroy();
      reject(abortReason(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.once('end', () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    response.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? abortReason(signal) : error);
    });
  });
}

/** What the signal was aborted with (a TimeoutError for `AbortSignal.timeout`), as an Error. */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('the request was cancelled', 'AbortError');
}
