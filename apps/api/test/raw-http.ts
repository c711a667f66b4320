import { request, type IncomingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** From sending to the whole answer, in milliseconds. */
  ms: number;
}

export interface RawRequest {
  method?: string;
  /** Sent exactly as written (no URL normalisation, unlike fetch). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The loopback address to send from: another client for the api. */
  localAddress?: string;
}

/** One HTTP request to `base` as a client would write it byte for byte: raw path, any Host, any source address. */
export function rawRequest(base: string, options: RawRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: hostname, port, method: options.method ?? 'GET', path: options.path, headers: options.headers, localAddress: options.localAddress, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, ms: performance.now() - started });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
