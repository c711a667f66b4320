import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

/** An API server to send raw requests to (kube-sim or a real kube-apiserver). */
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
    const call = request(url, { method, rejectUnauthorized: false, headers: { Authorization: `Bearer ${target.token}`, Accept: 'application/json', ...(payload ? { 'Content-Type': contentType } : {}) } }, (response) => {
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
    });
    call.on('error', fail);
    call.end(payload);
  });
}

/** Where the real control plane is: ANTIDOTE_TEST_KCP, else `<repo>/../shared/kcp`; undefined when absent. */
export function kcpDirectory(repoRoot: string): string | undefined {
  const candidate = process.env.ANTIDOTE_TEST_KCP ?? resolve(repoRoot, '..', 'shared', 'kcp');
  return existsSync(join(candidate, 'start.sh')) ? candidate : undefined;
}

const run = promisify(execFile);

/** A real control plane started in a temporary state directory; `stop` ends exactly its processes. */
export async function startKcp(directory: string): Promise<{ target: ApiTarget; stop: () => Promise<void> }> {
  const state = mkdtempSync(join(tmpdir(), 'kcp-differential-'));
  const { stdout } = await run('bash', [join(directory, 'start.sh'), state], { env: { ...process.env, KCP_TIMEOUT: process.env.KCP_TIMEOUT ?? '110' }, maxBuffer: 1 << 20 });
  const config = parse(readFileSync(stdout.trim().split('\n').pop()!, 'utf8')) as { clusters: { cluster: { server: string } }[]; users: { user: { token: string } }[] };
  return {
    target: { name: 'kube-apiserver', url: config.clusters[0].cluster.server, token: config.users[0].user.token },
    stop: async () => {
      await run('bash', [join(directory, 'stop.sh'), state]);
    },
  };
}
