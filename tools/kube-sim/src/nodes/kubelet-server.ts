import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../api/object.js';
import type { PodLogs } from '../pods/pod-logs.js';

/** A self-signed serving certificate for the kubelet API (the apiserver does not verify it without --kubelet-certificate-authority). */
function servingCertificate(addresses: readonly string[]): { cert: Buffer; key: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'kube-sim-kubelet-'));
  try {
    const san = ['DNS:localhost', ...addresses.map((address) => `IP:${address}`)].join(',');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650', '-subj', '/CN=kube-sim-kubelet', '-addext', `subjectAltName=${san}`, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The part of the kubelet API the apiserver proxies to: `GET /containerLogs/<namespace>/<pod>/<container>`
 * (what `kubectl logs` and `pods/log` read), with tailLines and limitBytes; `/healthz`.
 */
export class KubeletServer {
  private readonly servers: Server[] = [];

  constructor(
    private readonly podOf: (namespace: string, name: string) => KubeObject | undefined,
    private readonly logs: PodLogs,
  ) {}

  async listen(addresses: readonly string[], port: number): Promise<void> {
    const certificate = servingCertificate(addresses);
    for (const address of addresses) {
      const server = createServer(certificate, (request, response) => {
        const url = new URL(request.url ?? '/', 'https://kubelet');
        const [, kind, namespace, name, container] = url.pathname.split('/');
        if (url.pathname === '/healthz') return void response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
        const pod = kind === 'containerLogs' && namespace && name ? this.podOf(decodeURIComponent(namespace), decodeURIComponent(name)) : undefined;
        if (!pod) return void response.writeHead(404, { 'Content-Type': 'text/plain' }).end(`${url.pathname}: not found\n`);
        let text = this.logs.read(pod.metadata.uid!, container ? decodeURIComponent(container) : undefined, Number(url.searchParams.get('tailLines') ?? 0));
        const limit = Number(url.searchParams.get('limitBytes') ?? 0);
        if (limit > 0) text = Buffer.from(text).subarray(0, limit).toString('utf8');
        response.writeHead(200, { 'Content-Type': 'text/plain' }).end(text);
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, address, () => resolve());
      });
      this.servers.push(server);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
  }
}
