import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { KubeObject } from '../api/object.js';
import type { ResourceRequest } from '../api/request.js';
import { badRequest, type ApiError } from '../api/status.js';
import { EXEC_PROTOCOLS, serveExec } from './exec-session.js';

/** Answers an upgrade that cannot proceed with a Status body and closes the socket. */
export function refuseUpgrade(socket: Duplex, error: ApiError): void {
  const body = JSON.stringify(error.toStatus());
  socket.end(
    `HTTP/1.1 ${error.code} ${error.reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** `pods/<name>/exec` over WebSocket (`v5.channel.k8s.io`, `v4.channel.k8s.io`) into a Running pod's simulated shell. */
export class PodExec {
  private readonly server = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => EXEC_PROTOCOLS.find((protocol) => offered.has(protocol)) ?? false,
  });

  /** Checks the pod and container, then upgrades; throws an ApiError (the caller refuses the upgrade) when it cannot. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, target: ResourceRequest, pod: KubeObject): void {
    if ((request.headers.upgrade ?? '').toLowerCase() !== 'websocket')
      throw badRequest('unable to upgrade connection: kube-sim serves exec over WebSocket (v5.channel.k8s.io, v4.channel.k8s.io) only');
    const phase = pod.status?.phase as string | undefined;
    if (phase === 'Succeeded' || phase === 'Failed') throw badRequest(`cannot exec into a container in a completed pod; current phase is ${phase}`);
    const containers = (pod.spec?.containers as { name: string; image?: string }[] | undefined) ?? [];
    const name = target.query.get('container') ?? containers[0]?.name;
    const container = containers.find((candidate) => candidate.name === name);
    if (!container) throw badRequest(`container ${name ?? ''} is not valid for pod ${pod.metadata.name}`);
    if (phase !== 'Running') throw badRequest(`unable to upgrade connection: container not found ("${container.name}")`);
    const flag = (key: string): boolean => ['true', '1'].includes(target.query.get(key) ?? '');
    const options = { command: target.query.getAll('command'), stdin: flag('stdin'), tty: flag('tty') };
    const identity = { hostname: pod.metadata.name!, user: 'root', address: pod.status?.podIP as string | undefined, image: container.image };
    this.server.handleUpgrade(request, socket, head, (websocket) => serveExec(websocket, identity, options));
  }

  close(): void {
    for (const client of this.server.clients) client.terminate();
    this.server.close();
  }
}
