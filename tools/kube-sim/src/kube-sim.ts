import { randomBytes } from 'node:crypto';
import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Agent, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { handleAdmin } from './admin.js';
import type { KindBehaviour } from './api/behaviour.js';
import { discovery } from './api/discovery.js';
import type { KubeObject } from './api/object.js';
import { readBody, route, type ResourceRequest } from './api/request.js';
import { ResourceHandler } from './api/resource-handler.js';
import { ResourceRegistry } from './api/resources.js';
import { ApiError, badRequest } from './api/status.js';
import { ObjectStore, resourceKey } from './api/store.js';
import { WatchHandler } from './api/watch-handler.js';
import { AuthGate, type AuthOptions } from './auth/auth-gate.js';
import { bootstrapPolicy } from './auth/bootstrap-policy.js';
import type { RequestAttributes } from './auth/rbac.js';
import { crdBehaviour } from './controllers/crd.behaviour.js';
import { daemonSetBehaviour } from './controllers/daemonset.behaviour.js';
import { jobBehaviour } from './controllers/job.behaviour.js';
import { namespaceBehaviour } from './controllers/namespace.behaviour.js';
import { podBehaviour } from './controllers/pod.behaviour.js';
import { quotaBehaviour } from './controllers/quota.behaviour.js';
import { serviceBehaviour } from './controllers/service.behaviour.js';
import { SimContext } from './controllers/sim-context.js';
import { simNodeNames, simNodeObject } from './controllers/sim-nodes.js';
import { RequestCounters } from './counters.js';
import { AddressPool } from './endpoints/address-pool.js';
import { claimAddressRanges, type AddressRanges } from './endpoints/address-ranges.js';
import { EndpointExposure, type EndpointReport } from './endpoints/endpoint-exposure.js';
import { EndpointListeners } from './endpoints/endpoint-listeners.js';
import { processPorts } from './endpoints/port-registry.js';
import { PodExec, refuseUpgrade } from './exec/exec-upgrade.js';
import { ImageCache } from './pods/image-cache.js';
import { PodLogs } from './pods/pod-logs.js';
import { defaultFaults, injectedError, latencyFor, seededRandom, type Faults } from './faults.js';
import { validateFields } from './openapi/field-validation.js';
import { openApi } from './openapi/openapi.js';
import { printerOf, toTable, wantsTable } from './table/table.js';
import { simFetch, trustingAgent, type SimFetchInit } from './sim-fetch.js';
import { selfSignedCertificate } from './tls/self-signed.js';

export interface KubeSimOptions {
  /** 0 or absent: a free port. */
  port?: number;
  host?: string;
  faults?: Partial<Faults>;
  /** SSH logins accepted by simulated endpoints (user → password); absent: any login. */
  sshUsers?: Record<string, string>;
  /** Seed of the random error injection. */
  seed?: number;
  /** Write a kubeconfig pointing at the simulator here. */
  kubeconfigPath?: string;
  /**
   * Bearer-token authentication and RBAC. Default: only the admin token kube-sim makes at start (random,
   * in its kubeconfig and `sim.token`) is accepted; no token or another one gets 401.
   */
  auth?: AuthOptions;
  /** How many nodes pods are spread over (default 1): `kube-sim-node`, `kube-sim-node-1`, … each with its own image cache. */
  nodes?: number;
  /**
   * Past this many addresses answering on one port (pods and Services, all simulators of the process),
   * the port is served by one wildcard socket instead of one per address (default 256; see
   * endpoints/port-registry.ts): file descriptors stay bounded however many lessons run.
   */
  sharedListenersAfter?: number;
  /** Objects created at start (e.g. the secrets namespace and its TLS secret). */
  objects?: KubeObject[];
  log?: (message: string) => void;
}

/** A Kubernetes API simulator speaking the REST protocol, with simulated controllers and real endpoint sockets. */
export class KubeSim {
  readonly store = new ObjectStore();
  readonly registry = new ResourceRegistry();
  readonly counters = new RequestCounters();
  readonly faults: Faults;
  /** The images each node holds (see `imagePullDelayMs`). */
  readonly images = new ImageCache();
  private readonly handler: ResourceHandler;
  private readonly watches: WatchHandler;
  private readonly context: SimContext;
  private readonly listeners: EndpointListeners;
  private readonly endpoints: EndpointExposure;
  private readonly podLogs = new PodLogs();
  private readonly random: () => number;
  private readonly sockets = new Set<Socket>();
  private connectionsAccepted = 0;
  private readonly exec = new PodExec();
  private readonly gate: AuthGate;
  /** The admin's bearer token (`system:masters`): the kubeconfig's, random per run unless the tokens given hold one. */
  readonly token: string;
  /** The serving certificate (PEM), self-signed and new per run: the kubeconfig's `certificate-authority-data`. */
  readonly ca: string;
  private readonly key: string;
  private agent?: Agent;
  private server?: Server;
  url = '';
  port = 0;
  kubeconfigPath?: string;
  /** The loopback ranges of this simulator's pod and Service addresses, unique on the machine. */
  readonly ranges: AddressRanges = claimAddressRanges();

  private constructor(options: KubeSimOptions) {
    this.faults = { ...defaultFaults(), ...options.faults };
    this.random = seededRandom(options.seed ?? 42);
    const tokens = options.auth?.tokens ?? [];
    const admin = tokens.find((entry) => entry.groups.includes('system:masters')) ?? {
      token: randomBytes(32).toString('base64url'),
      name: 'kube-sim-admin',
      groups: ['system:masters'],
    };
    this.token = admin.token;
    this.gate = new AuthGate(tokens.includes(admin) ? tokens : [...tokens, admin], options.auth ?? {}, this.store);
    const host = options.host ?? '127.0.0.1';
    ({ cert: this.ca, key: this.key } = selfSignedCertificate('kube-sim', [...new Set(['127.0.0.1', '::1', 'localhost', host])]));
    const behaviours = new Map<string, KindBehaviour>();
    this.handler = new ResourceHandler(this.store, this.registry, behaviours);
    this.watches = new WatchHandler(this.store, this.handler);
    this.listeners = new EndpointListeners({ users: options.sshUsers ?? {} }, { sharedAfter: options.sharedListenersAfter });
    const log = options.log ?? (() => undefined);
    this.endpoints = new EndpointExposure((resource, namespace) => this.store.peek(resource, namespace), this.faults, this.listeners, log);
    this.context = new SimContext(
      this.store,
      this.registry,
      this.handler,
      this.faults,
      this.endpoints,
      new AddressPool(this.ranges.pods),
      new AddressPool(this.ranges.services),
      log,
    );
    const jobs = jobBehaviour(this.context);
    behaviours.set('/namespaces', namespaceBehaviour(this.context));
    behaviours.set('/pods', podBehaviour(this.context, this.podLogs, jobs.podHooks, this.images));
    behaviours.set('/services', serviceBehaviour(this.context));
    behaviours.set('/resourcequotas', quotaBehaviour(this.context));
    behaviours.set('batch/jobs', jobs.behaviour);
    behaviours.set('apps/daemonsets', daemonSetBehaviour(this.context));
    behaviours.set('apiextensions.k8s.io/customresourcedefinitions', crdBehaviour(this.context));
  }

  static async start(options: KubeSimOptions = {}): Promise<KubeSim> {
    const sim = new KubeSim(options);
    for (const name of ['default', 'kube-system', 'kube-public']) {
      sim.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      // Ready, like a real control plane, once its built-in namespaces have their ServiceAccount.
      if (!sim.store.get('/serviceaccounts', name, 'default'))
        sim.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: name } });
    }
    for (const name of simNodeNames(options.nodes ?? 1)) sim.create(simNodeObject(name));
    if (options.auth?.rbac) for (const object of bootstrapPolicy()) sim.create(object);
    for (const object of options.objects ?? []) sim.create(object);
    await sim.listen(options.port ?? 0, options.host ?? '127.0.0.1');
    if (options.kubeconfigPath) sim.writeKubeconfig(options.kubeconfigPath);
    return sim;
  }

  /** Creates an object directly (seeding, tests); its kind must be served. */
  create(object: KubeObject): KubeObject {
    const type = this.registry.byKind(object.apiVersion ?? 'v1', object.kind ?? '');
    if (!type) throw new Error(`kube-sim does not serve ${object.apiVersion}/${object.kind}`);
    return this.handler.create(type, object.metadata.namespace, object).body as KubeObject;
  }

  /** Objects of a resource plural, whatever its API group (all namespaces when `namespace` is undefined). */
  list(plural: string, namespace?: string): KubeObject[] {
    const type = this.registry.all().find((candidate) => candidate.plural === plural);
    return type ? this.store.list(`${type.group}/${type.plural}`, namespace) : [];
  }

  /**
   * The admin's kubeconfig (TLS verified against this run's certificate, the admin token), mode 0600
   * whatever the file was before; written whole, so a reader never sees half of it.
   */
  writeKubeconfig(path: string): void {
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kube-sim', cluster: { server: this.url, 'certificate-authority-data': Buffer.from(this.ca).toString('base64') } }],
      users: [{ name: 'kube-sim', user: { token: this.token } }],
      contexts: [{ name: 'kube-sim', context: { cluster: 'kube-sim', user: 'kube-sim', namespace: 'default' } }],
      'current-context': 'kube-sim',
    };
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, stringify(config), { mode: 0o600 });
    chmodSync(partial, 0o600);
    renameSync(partial, path);
    this.kubeconfigPath = path;
  }

  /** A request to this simulator as its admin (or with `init.token`; `null`: anonymous), over its TLS. */
  fetch(path: string, init?: SimFetchInit): Promise<Response> {
    this.agent ??= trustingAgent(this.ca);
    return simFetch(this.agent, this.url, this.token, path, init);
  }

  setFaults(partial: Partial<Faults>): void {
    Object.assign(this.faults, partial);
    if (partial.unreachable) this.endpoints.refresh();
  }

  resetFaults(): void {
    Object.assign(this.faults, defaultFaults());
    this.endpoints.refresh();
  }

  dropWatches(): number {
    const open = this.watches.openWatches;
    this.watches.dropAll();
    return open;
  }

  compactHistory(): void {
    this.store.compact();
  }

  /** Every API call fails (503) for `ms`, and open watches drop. */
  outage(ms: number): void {
    this.faults.outageUntil = Date.now() + ms;
    this.watches.dropAll();
  }

  stats(): Record<string, number> {
    return {
      resourceVersion: this.store.currentVersion,
      connectionsAccepted: this.connectionsAccepted,
      openWatches: this.watches.openWatches,
      listeners: this.listeners.listenerCount,
      endpointSockets: processPorts.sockets,
      namespaces: this.store.count('/namespaces'),
      pods: this.store.count('/pods'),
    };
  }

  /** Each answering pod and Service (in a namespace, or all): its boot stage and the connections it accepted by port and stage. */
  endpointReport(namespace?: string): EndpointReport[] {
    return this.endpoints.report(namespace);
  }

  async stop(): Promise<void> {
    this.context.stop();
    this.watches.dropAll();
    this.exec.close();
    this.listeners.closeAll();
    this.ranges.release();
    for (const socket of this.sockets) socket.destroy();
    this.agent?.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async listen(port: number, host: string): Promise<void> {
    this.server = createServer({ cert: this.ca, key: this.key }, (request, response) => void this.serve(request, response));
    this.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(request, socket, head));
    // An API server keeps idle connections far longer than Node's 5 s default; clients are expected to reuse them.
    this.server.keepAliveTimeout = 120_000;
    this.server.on('connection', (socket: Socket) => {
      this.connectionsAccepted++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `https://${host.includes(':') ? `[${host}]` : host}:${this.port}`;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'https://kube-sim');
    if (url.pathname.startsWith('/_sim/') || ['/healthz', '/livez', '/readyz'].includes(url.pathname)) {
      try {
        this.admit(request, undefined, url.pathname);
      } catch (error) {
        return send(response, (error as ApiError).code, (error as ApiError).toStatus());
      }
      if (!url.pathname.startsWith('/_sim/')) return void response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      await handleAdmin(this, request, response, url.pathname).catch((error: unknown) => send(response, 400, { error: String(error) }));
      return;
    }
    let record = {
      verb: request.method?.toLowerCase() ?? 'get',
      group: '',
      resource: '',
      subresource: undefined as string | undefined,
      namespace: undefined as string | undefined,
    };
    let code = 500;
    try {
      const target = route(request.method ?? 'GET', url, this.registry);
      if (target.kind === 'resource') {
        const { verb, type, subresource, namespace } = target.request;
        record = { verb: subresource === 'log' ? 'get' : verb, group: type.group, resource: type.plural, subresource, namespace };
      }
      this.admit(request, target.kind === 'resource' ? { ...record, name: target.request.name } : undefined, url.pathname);
      await this.applyFaults(record.verb, record.resource);
      code = await this.dispatch(target, request, response, url);
    } catch (error) {
      const apiError =
        error instanceof ApiError
          ? error
          : new ApiError(500, 'InternalError', `Internal error occurred: ${error instanceof Error ? error.message : String(error)}`);
      code = apiError.code;
      const headers: Record<string, string> = apiError.details?.retryAfterSeconds ? { 'Retry-After': String(apiError.details.retryAfterSeconds) } : {};
      if (!response.headersSent) send(response, code, apiError.toStatus(), headers);
      else response.destroy();
    } finally {
      this.counters.record({
        at: new Date().toISOString(),
        method: request.method ?? 'GET',
        path: url.pathname,
        userAgent: request.headers['user-agent'] ?? '',
        code,
        ...record,
      });
    }
  }

  /** Authentication and authorization: throws 401/403 Status errors. */
  private admit(request: IncomingMessage, attributes: RequestAttributes | undefined, path: string): void {
    const user = this.gate.authenticate(request);
    if (attributes) this.gate.authorize(user, attributes);
    else this.gate.authorizePath(user, request.method ?? 'GET', path);
  }

  /** Connection upgrades: `pods/<name>/exec` over WebSocket. */
  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'https://kube-sim');
    const record = { verb: 'create', group: '', resource: 'pods', subresource: 'exec' as string | undefined, namespace: undefined as string | undefined };
    let code = 101;
    try {
      const target = route(request.method ?? 'GET', url, this.registry);
      if (target.kind !== 'resource' || resourceKey(target.request.type) !== '/pods' || target.request.subresource !== 'exec' || !target.request.name)
        throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      record.namespace = target.request.namespace;
      this.admit(request, { ...record, name: target.request.name }, url.pathname);
      const pod = this.handler.mustGet(target.request.type, target.request.namespace, target.request.name);
      this.exec.upgrade(request, socket, head, target.request, pod);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError(500, 'InternalError', String(error));
      code = apiError.code;
      refuseUpgrade(socket, apiError);
    } finally {
      this.counters.record({
        at: new Date().toISOString(),
        method: request.method ?? 'GET',
        path: url.pathname,
        userAgent: request.headers['user-agent'] ?? '',
        code,
        ...record,
      });
    }
  }

  private async applyFaults(verb: string, resource: string): Promise<void> {
    if (Date.now() < this.faults.outageUntil) throw new ApiError(503, 'ServiceUnavailable', 'the API server is unavailable (simulated outage)');
    const latency = latencyFor(this.faults, verb, resource);
    if (latency > 0) await sleep(latency);
    const rule = injectedError(this.faults, verb, resource, this.random);
    if (rule) {
      if (rule.code === 429)
        throw new ApiError(429, 'TooManyRequests', 'Too many requests, please try again later (simulated)', { retryAfterSeconds: rule.retryAfterSeconds ?? 1 });
      throw new ApiError(rule.code, rule.code === 503 ? 'ServiceUnavailable' : 'InternalError', `Internal error occurred: simulated ${rule.code}`);
    }
  }

  private async dispatch(target: ReturnType<typeof route>, request: IncomingMessage, response: ServerResponse, url: URL): Promise<number> {
    if (target.kind === 'discovery') {
      const body =
        openApi(url.pathname, request.headers.accept, this.registry, this.store) ??
        discovery(url.pathname, this.registry, `${request.socket.localAddress}:${this.port}`);
      if (body === undefined) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      send(response, 200, body);
      return 200;
    }
    if (target.kind === 'unknown') throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    const resourceRequest = target.request;
    if (resourceRequest.verb === 'watch') {
      if (request.method !== 'GET') throw new ApiError(405, 'MethodNotAllowed', 'watch needs GET');
      this.watches.serve(resourceRequest, response, (object) => this.asRequested({ ...resourceRequest, verb: 'get' }, object, request.headers.accept));
      return 200;
    }
    if (resourceRequest.subresource === 'log') return this.servePodLog(resourceRequest, response);
    if (resourceRequest.subresource === 'exec') throw badRequest('Upgrade request required');
    const raw = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method ?? '') ? await readBody(request) : '';
    const { body, contentType, warnings, decoded } = validateFields(resourceRequest, raw, request.headers['content-type'] ?? 'application/json', this.store);
    const result = this.handler.handle(resourceRequest, body, contentType, decoded);
    send(
      response,
      result.code,
      this.asRequested(resourceRequest, result.body, request.headers.accept),
      warnings.length > 0 ? { Warning: warnings.join(', ') } : {},
    );
    return result.code;
  }

  /** A Table when the client asked for one (`kubectl get`), else the object or list. */
  private asRequested(request: ResourceRequest, body: unknown, accept: string | undefined): unknown {
    if ((request.verb !== 'get' && request.verb !== 'list') || request.subresource || !wantsTable(accept)) return body;
    const crd = this.store.get('apiextensions.k8s.io/customresourcedefinitions', undefined, `${request.type.plural}.${request.type.group}`);
    return toTable(printerOf(request.type, crd), body, request.query);
  }

  private servePodLog(request: ResourceRequest, response: ServerResponse): number {
    const pod = this.handler.mustGet(request.type, request.namespace, request.name!);
    const log = this.podLogs.read(pod.metadata.uid!, request.query.get('container'), Number(request.query.get('tailLines') ?? 0));
    response.writeHead(200, { 'Content-Type': 'text/plain' });
    response.end(log);
    return 200;
  }
}

function send(response: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  // As the API server's WithCacheControl filter: no cache keeps an answer meant for one user. With its
  // length the answer goes out whole, in one write with its headers (chunked, it took four).
  response.writeHead(code, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Content-Length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

export const startKubeSim = (options?: KubeSimOptions): Promise<KubeSim> => KubeSim.start(options);
