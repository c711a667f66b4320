import { createServer, type Server } from 'node:https';
import type { KubeObject } from '../api/object.js';
import type { PodLogs } from '../pods/pod-logs.js';
import { selfSignedCertificate } from '../tls/self-signed.js';

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
    // Self-signed: the apiserver does not verify it without --kubelet-certificate-authority.
    const certificate = selfSignedCertificate('kube-sim-kubelet', ['localhost', ...addresses]);
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
