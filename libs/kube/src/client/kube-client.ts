import type { KubernetesConfig } from '@antidote/config';
import { KubeWatchSource } from '../watch/kube-watch-source.js';
import { SharedInformer } from '../watch/shared-informer.js';
import type { ListSnapshot } from '../watch/watch-source.js';
import { isAlreadyExists, isNotFound, type KubeCallTarget, type KubeVerb } from './kube-api.error.js';
import { KubeCallRunner, type KubeCallEvent, type KubeCallRunnerOptions } from './kube-call.runner.js';
import { kubeConnectionFrom } from './kube-connection.js';
import { KubeHttp, query as queryString, type KubeReply, type KubeRequest } from './kube-http.js';
import { Semaphore } from '@antidote/concurrency';
import { writeRank } from './write-priority.js';
import { silentLogger, type KubeLogger } from './kube-logger.js';
import { KIND_PATHS, type KindTypes, type KubeKind, type ListPage, type ListQuery } from './kube-resources.js';

export interface KubeClientOptions extends Omit<KubeCallRunnerOptions, 'logger'> {
  logger?: KubeLogger;
  /** Sent as the User-Agent of every call and watch: which app calls. */
  userAgent?: string;
  /** Page size of paged lists. */
  pageSize?: number;
  /**
   * The label that marks objects as ours. A create that meets an existing object (409) adopts it when
   * the existing one carries this label or the new body does not; it refuses to take over an object
   * someone else made under our name. Without it, a create adopts whatever exists.
   */
  ownerLabel?: { key: string; value: string };
  /**
   * Kubernetes writes (create, update, delete) in flight at once across this client and its children;
   * the rest wait in line. Waits hold nothing (they are watches or cache subscriptions). Unbounded when unset.
   */
  maxConcurrentWrites?: number;
}

const WRITES = new Set<KubeVerb>(['create', 'update', 'patch', 'delete']);

const nameOf = (object: { metadata?: { name?: string } }): string => object.metadata?.name ?? '';

/**
 * The one Kubernetes client of Antidote: JSON over HTTP to the REST paths of the few kinds we use
 * (`KIND_PATHS`), every call through the call runner (timeout, bounded retries, metrics hook); creates
 * adopt what we already own (409), deletes tolerate 404, lists are paged, and watches resume (re-listed
 * on 410), alone or as a shared informer. The waits built on it (pods Running, jobs done, a namespace
 * gone, a ServiceAccount there, a CRD established) are in `../waits`.
 */
export class KubeClient {
  private readonly runner: KubeCallRunner;
  /** Its own, and the waits' (libs/kube/src/waits) that use it. */
  readonly logger: KubeLogger;
  private readonly pageSize: number;
  private calls = 0;
  private readonly writes?: Semaphore;

  constructor(
    readonly http: KubeHttp,
    private readonly options: KubeClientOptions,
    writes?: Semaphore,
  ) {
    this.writes = writes ?? (options.maxConcurrentWrites ? new Semaphore(options.maxConcurrentWrites) : undefined);
    this.logger = options.logger ?? silentLogger;
    this.pageSize = options.pageSize ?? 500;
    this.runner = new KubeCallRunner({
      ...options,
      logger: this.logger,
      onCall: (event: KubeCallEvent) => {
        this.calls++;
        options.onCall?.(event);
      },
    });
  }

  static fromConfig(config: KubernetesConfig, options: KubeClientOptions): KubeClient {
    return new KubeClient(new KubeHttp(kubeConnectionFrom(config, options.userAgent)), options);
  }

  /** HTTP calls made so far (every attempt). */
  callCount(): number {
    return this.calls;
  }

  /** A client on the same connection and options (metrics included) that counts its own calls. */
  child(): KubeClient {
    return new KubeClient(this.http, this.options, this.writes);
  }

  /** Creates the object; when it exists already and is ours (see `ownerLabel`), adopts it. */
  async create<K extends KubeKind>(kind: K, namespace: string, body: KindTypes[K], signal?: AbortSignal): Promise<KindTypes[K]> {
    try {
      return await this.createNew(kind, namespace, body, signal);
    } catch (error) {
      return this.adopt(kind, namespace, body, error, signal);
    }
  }

  /**
   * `create` for a caller that reads nothing of the answer: the object the server sends back (the whole
   * object, defaults and status filled in) is not parsed.
   */
  async ensure<K extends KubeKind>(kind: K, namespace: string, body: KindTypes[K], signal?: AbortSignal): Promise<void> {
    try {
      await this.post(kind, namespace, body, signal);
    } catch (error) {
      await this.adopt(kind, namespace, body, error, signal);
    }
  }

  /** Creates the object; one that exists already fails the call (409), nothing is adopted. */
  async createNew<K extends KubeKind>(kind: K, namespace: string, body: KindTypes[K], signal?: AbortSignal): Promise<KindTypes[K]> {
    return JSON.parse((await this.post(kind, namespace, body, signal)).text) as KindTypes[K];
  }

  private post<K extends KubeKind>(kind: K, namespace: string, body: KindTypes[K], signal?: AbortSignal): Promise<KubeReply> {
    return this.call('create', kind, namespace, nameOf(body), { method: 'POST', path: KIND_PATHS[kind].collectionPath(namespace), body }, signal, true);
  }

  /** After a create failed with `error`: the object there when it is a 409 and the object is ours to adopt; else `error` again. */
  private async adopt<K extends KubeKind>(kind: K, namespace: string, body: KindTypes[K], error: unknown, signal?: AbortSignal): Promise<KindTypes[K]> {
    if (!isAlreadyExists(error)) throw error;
    const existing = await this.read(kind, namespace, nameOf(body), signal);
    if (existing && (this.owns(existing) || !this.owns(body))) return existing;
    throw error;
  }

  async read<K extends KubeKind>(kind: K, namespace: string, name: string, signal?: AbortSignal): Promise<KindTypes[K] | undefined> {
    try {
      return await this.json('get', kind, namespace, name, { method: 'GET', path: KIND_PATHS[kind].objectPath(namespace, name) }, signal);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  replace<K extends KubeKind>(kind: K, namespace: string, body: KindTypes[K], signal?: AbortSignal): Promise<KindTypes[K]> {
    return this.json('update', kind, namespace, nameOf(body), { method: 'PUT', path: KIND_PATHS[kind].objectPath(namespace, nameOf(body)), body }, signal);
  }

  /** Deletes (background propagation); false when it was already gone. */
  async delete(kind: KubeKind, namespace: string, name: string, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.call(
        'delete',
        kind,
        namespace,
        name,
        { method: 'DELETE', path: `${KIND_PATHS[kind].objectPath(namespace, name)}?propagationPolicy=Background` },
        signal,
      );
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async list<K extends KubeKind>(kind: K, namespace: string, query: ListQuery = {}, signal?: AbortSignal): Promise<ListPage<KindTypes[K]>> {
    const params = { labelSelector: query.labelSelector, fieldSelector: query.fieldSelector, limit: query.limit, continue: query.continueToken };
    const page = await this.json<{ items?: KindTypes[K][]; metadata?: { resourceVersion?: string; continue?: string } }>(
      'list',
      kind,
      namespace,
      undefined,
      { method: 'GET', path: `${KIND_PATHS[kind].collectionPath(namespace)}${queryString(params)}` },
      signal,
    );
    return {
      items: page.items ?? [],
      resourceVersion: page.metadata?.resourceVersion ?? '',
      ...(page.metadata?.continue ? { continueToken: page.metadata.continue } : {}),
    };
  }

  /** A list page by page, for a caller that keeps less than each page (one consistent snapshot: continue tokens keep the first page's version). */
  async *pages<K extends KubeKind>(kind: K, namespace: string, query: ListQuery = {}, signal?: AbortSignal): AsyncGenerator<ListPage<KindTypes[K]>> {
    let continueToken: string | undefined;
    do {
      const page = await this.list(kind, namespace, { ...query, limit: query.limit ?? this.pageSize, ...(continueToken ? { continueToken } : {}) }, signal);
      yield page;
      continueToken = page.continueToken;
    } while (continueToken);
  }

  /** Every page of a list, as one snapshot. */
  async listAll<K extends KubeKind>(kind: K, namespace: string, query: ListQuery = {}, signal?: AbortSignal): Promise<ListSnapshot<KindTypes[K]>> {
    const items: KindTypes[K][] = [];
    let resourceVersion = '';
    for await (const page of this.pages(kind, namespace, query, signal)) {
      items.push(...page.items);
      resourceVersion ||= page.resourceVersion;
    }
    return { items, resourceVersion };
  }

  watchSource<K extends KubeKind>(kind: K, namespace: string, query: ListQuery = {}): KubeWatchSource<KindTypes[K]> {
    const paths = KIND_PATHS[kind];
    return new KubeWatchSource<KindTypes[K]>(this.http, {
      resource: paths.resource,
      ...(paths.namespaced ? { namespace } : {}),
      query,
      collectionPath: paths.collectionPath(paths.namespaced ? namespace : undefined),
      listAll: (signal) => this.listAll(kind, namespace, query, signal),
    });
  }

  /** The last lines of a container's log; empty when there is none (yet). */
  async podLogs(namespace: string, pod: string, container?: string, tailLines = 40): Promise<string> {
    try {
      const path = `${KIND_PATHS.Pod.objectPath(namespace, pod)}/log${queryString({ tailLines, container })}`;
      const reply = await this.runner.run({ verb: 'get', resource: 'pods/log', namespace, name: pod }, (attempt) =>
        this.http.send({ method: 'GET', path, ...attempt }),
      );
      return reply.text.trimEnd();
    } catch (error) {
      this.logger.debug({ namespace, pod, container, error: String(error) }, 'no pod log');
      return '';
    }
  }

  /**
   * A shared cache of `kind` across all namespaces, selected by a label selector or a label and field
   * selector (one list, then one watch, for the whole process). Started by the caller; pass it to the
   * waits as `informer`. `keep`: what of each object it holds (e.g. `metadataAndStatus`), the whole
   * object by default.
   */
  informer<K extends KubeKind>(
    kind: K,
    selector: string | Pick<ListQuery, 'labelSelector' | 'fieldSelector'>,
    keep?: (object: KindTypes[K]) => KindTypes[K],
  ): SharedInformer<KindTypes[K]> {
    const query = typeof selector === 'string' ? { labelSelector: selector } : selector;
    return new SharedInformer(this.watchSource(kind, '', query), { clusterScoped: !KIND_PATHS[kind].namespaced, logger: this.logger, keep });
  }

  /** Merges `labels` into a namespace's labels: one JSON merge PATCH (other labels untouched). */
  async patchNamespaceLabels(name: string, labels: Record<string, string>, signal?: AbortSignal): Promise<void> {
    const path = KIND_PATHS.Namespace.objectPath('', name);
    await this.call(
      'patch',
      'Namespace',
      '',
      name,
      { method: 'PATCH', path, body: { metadata: { labels } }, contentType: 'application/merge-patch+json' },
      signal,
    );
  }

  /** Drops every finalizer of a Terminating namespace (the `finalize` subresource). */
  async removeNamespaceFinalizers(name: string): Promise<void> {
    const namespace = await this.read('Namespace', '', name);
    if (!namespace) return;
    const path = `${KIND_PATHS.Namespace.objectPath('', name)}/finalize`;
    const body = { ...namespace, spec: { ...namespace.spec, finalizers: [] } };
    await this.runner.run({ verb: 'update', resource: 'namespaces/finalize', name }, (attempt) => this.http.send({ method: 'PUT', path, body, ...attempt }));
  }

  private owns(object: { metadata?: { labels?: Record<string, string> } }): boolean {
    const owner = this.options.ownerLabel;
    return owner !== undefined && object.metadata?.labels?.[owner.key] === owner.value;
  }

  /** One call about `kind` (a write waits its turn among the bounded writes); the reply as it came. */
  private call(
    verb: KubeVerb,
    kind: KubeKind,
    namespace: string,
    name: string | undefined,
    request: Omit<KubeRequest, 'signal'>,
    signal?: AbortSignal,
    createIsSafe = false,
  ): Promise<KubeReply> {
    const paths = KIND_PATHS[kind];
    const target: KubeCallTarget = { verb, resource: paths.resource, ...(paths.namespaced && namespace ? { namespace } : {}), ...(name ? { name } : {}) };
    const run = (): Promise<KubeReply> =>
      this.runner.run(target, (attempt) => this.http.send({ ...request, ...attempt }), { ...(signal ? { signal } : {}), createIsSafe });
    return this.writes && WRITES.has(verb) ? this.writes.run(run, signal, writeRank()) : run();
  }

  /** A call whose answer is a JSON object. */
  private async json<T>(
    verb: KubeVerb,
    kind: KubeKind,
    namespace: string,
    name: string | undefined,
    request: Omit<KubeRequest, 'signal'>,
    signal?: AbortSignal,
    createIsSafe = false,
  ): Promise<T> {
    return JSON.parse((await this.call(verb, kind, namespace, name, request, signal, createIsSafe)).text) as T;
  }
}
