import { Agent, request } from 'node:https';
import { Readable } from 'node:stream';

export interface SimFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Bearer token sent; `null`: none (an anonymous request). Default: the simulator's admin token. */
  token?: string | null;
}

/**
 * `fetch` for a simulator's HTTPS: trusts its certificate (only it) and sends a bearer token. Answers a
 * standard `Response`, streamed (a watch can be read as it comes).
 */
export function simFetch(agent: Agent, base: string, adminToken: string, path: string, init: SimFetchInit = {}): Promise<Response> {
  const { token = adminToken, method = 'GET', headers = {}, body, signal } = init;
  return new Promise((resolve, reject) => {
    const call = request(
      new URL(path, base),
      { agent, method, signal, headers: { ...(token === null ? {} : { Authorization: `Bearer ${token}` }), ...headers } },
      (response) => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(response.headers)) for (const item of [value ?? []].flat()) answer.append(name, item);
        const status = response.statusCode ?? 0;
        const bodyless = status === 204 || status === 304 || method === 'HEAD';
        if (bodyless) response.resume();
        resolve(new Response(bodyless ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), { status, headers: answer }));
      },
    );
    call.once('error', reject);
    call.end(body);
  });
}

/** The HTTPS agent of a client that trusts only `ca` and keeps its connections. */
export const trustingAgent = (ca: string): Agent => new Agent({ keepAlive: true, ca });
