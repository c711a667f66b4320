import { request as httpsRequest, type RequestOptions } from 'node:https';
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import type { KubeObject } from '../api/object.js';

interface Kubeconfig {
  'current-context'?: string;
  contexts?: { name: string; context: { cluster: string; user: string } }[];
  clusters?: {
    name: string;
    cluster: { server: string; 'certificate-authority'?: string; 'certificate-authority-data'?: string; 'insecure-skip-tls-verify'?: boolean };
  }[];
  users?: {
    name: string;
    user: {
      token?: string;
      tokenFile?: string;
      'client-certificate'?: string;
      'client-certificate-data'?: string;
      'client-key'?: string;
      'client-key-data'?: string;
    };
  }[];
}

export interface ApiResponse {
  code: number;
  body: KubeObject & { items?: KubeObject[]; message?: string };
}

/** Plain REST calls to a real apiserver with the credentials of a kubeconfig (its current context). */
export class KubeApi {
  private constructor(
    private readonly server: URL,
    private readonly options: RequestOptions,
    private readonly userAgent: string,
  ) {}

  /** The current context of a kubeconfig: bearer token or client certificate, CA or insecure-skip-tls-verify; calls name themselves `userAgent`. */
  static fromFile(path: string, userAgent = 'kube-sim-nodes'): KubeApi {
    const config = parse(readFileSync(path, 'utf8')) as Kubeconfig;
    const context = config.contexts?.find((candidate) => candidate.name === config['current-context'])?.context;
    const cluster = config.clusters?.find((candidate) => candidate.name === context?.cluster)?.cluster;
    const user = config.users?.find((candidate) => candidate.name === context?.user)?.user ?? {};
    if (!cluster?.server) throw new Error(`${path}: no server in the current context`);
    const file = (name: string | undefined, data: string | undefined) =>
      data ? Buffer.from(data, 'base64') : name ? readFileSync(resolve(dirname(path), name)) : undefined;
    const token = user.token ?? (user.tokenFile ? readFileSync(resolve(dirname(path), user.tokenFile), 'utf8').trim() : undefined);
    return new KubeApi(
      new URL(cluster.server),
      {
        ca: file(cluster['certificate-authority'], cluster['certificate-authority-data']),
        cert: file(user['client-certificate'], user['client-certificate-data']),
        key: file(user['client-key'], user['client-key-data']),
        rejectUnauthorized: cluster['insecure-skip-tls-verify'] !== true,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      },
      userAgent,
    );
  }

  /** One call; `headers` on top of the usual ones (e.g. an `Accept` asking for a Table). */
  async call(method: string, path: string, body?: unknown, contentType = 'application/json', headers: Record<string, string> = {}): Promise<ApiResponse> {
    // With Content-Length: the apiserver ignores a chunked DELETE body (its DeleteOptions).
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const text = await new Promise<{ code: number; text: string }>((resolve, reject) => {
      const request = this.open(
        method,
        path,
        { ...headers, ...(payload ? { 'Content-Type': contentType, 'Content-Length': String(payload.length) } : {}) },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ code: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
    return { code: text.code, body: /^[[{]/.test(text.text) ? (JSON.parse(text.text) as ApiResponse['body']) : { metadata: {}, message: text.text } };
  }

  /** Like `call`, throwing on any status outside 2xx (or `allowed`). */
  async must(method: string, path: string, body?: unknown, allowed: number[] = [], contentType?: string): Promise<ApiResponse> {
    const response = await this.call(method, path, body, contentType);
    if ((response.code < 200 || response.code > 299) && !allowed.includes(response.code))
      throw new Error(`${method} ${path}: ${response.code} ${response.body.message ?? ''}`);
    return response;
  }

  /** Opens a watch stream: one event per line; resolves when the stream ends (error, timeout, stop). */
  watch(path: string, onEvent: (event: { type: string; object: KubeObject }) => void, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      let rest = '';
      const request = this.open('GET', path, {}, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return resolve();
        }
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          rest += chunk;
          const lines = rest.split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) if (line.trim()) onEvent(JSON.parse(line) as { type: string; object: KubeObject });
        });
        response.on('end', () => resolve());
        response.on('error', () => resolve());
      });
      request.on('error', () => resolve());
      const abort = () => request.destroy();
      signal.addEventListener('abort', abort, { once: true });
      request.on('close', () => {
        signal.removeEventListener('abort', abort);
        resolve();
      });
      request.end();
    });
  }

  private open(method: string, path: string, headers: Record<string, string>, onResponse: Parameters<typeof httpsRequest>[2]) {
    const url = new URL(path, this.server);
    const options: RequestOptions = {
      ...this.options,
      method,
      headers: { ...(this.options.headers as Record<string, string>), Accept: 'application/json', 'User-Agent': this.userAgent, ...headers },
    };
    return (url.protocol === 'http:' ? httpRequest : httpsRequest)(url, options, onResponse);
  }
}
