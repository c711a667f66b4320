import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** An API server to send raw requests to (kube-sim or a real kube-apiserver; starting the real one: @antidote/testing's startKcp). */
export interface ApiTarget {
  name: string;
  url: string;
  token: string;
}

export interface ApiAnswer {
  code: number;
  body: Record<string, unknown>;
}

/** One HTTP request, TLS verification off (the real control plane's CA is its own). */
export function send(target: ApiTarget, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<ApiAnswer> {
  const url = new URL(path, target.url);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((done, fail) => {
    const call = request(
      url,
      {
        method,
        rejectUnauthorized: false,
        headers: { Authorization: `Bearer ${target.token}`, Accept: 'application/json', ...(payload ? { 'Content-Type': contentType } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, unknown> = {};
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = { text };
          }
          done({ code: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    call.on('error', fail);
    call.end(payload);
  });
}
