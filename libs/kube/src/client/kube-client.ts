import type { KubernetesConfig } from '@antidote/config';
import type { V1CustomResourceDefinition, V1Job, V1Namespace, V1Pod, V1ServiceAccount } from '@kubernetes/client-node';
import { KubeWatchSource } from '../watch/kube-watch-source.js';
import { SharedInformer } from '../watch/shared-informer.js';
import type { HasMetadata, ListSnapshot } from '../watch/watch-source.js';
import { watchUntil, type WaitVerdict } from '../watch/watch-until.js';
import { jobState, podState } from '../watch/workload-status.js';
import { isAlreadyExists, isNotFound, KubeApiError, type KubeCallTarget, type KubeVerb } from './kube-api.error.js';
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
  /** How long a pod create waits for its namespace's ServiceAccount (created by a controller just after the namespace). */
  serviceAccountWaitMs?: number;
}

/** A pod create refused because the namespace's ServiceAccount does not exist yet (the real admission message). */
const MISSING_SERVICE_ACCOUNT = /error looking up service account ([^/\s]+)\/([^:\s]+): serviceaccount "[^"]*" not found/;
const SERVICE_ACCOUNT_ATTEMPTS = 3;

export function missingServiceAccount(error: unknown): { namespace: string; name: string } | undefined {
  if (!(error instanceof KubeApiError) || error.code !== 403) return undefined;
  const match = MISSING_SERVICE_ACCOUNT.exec(error.statusMessage);
  return match ? { namespace: match[1], name: match[2] } : undefined;
}

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A wait answered from a shared cache (no Kubernetes call) instead of a list + watch of its own. */
export interface CachedWaitOptions<T extends HasMetadata> extends WaitOptions {
  informer?: SharedInformer<T>;
  /** Checked before every evaluation: an error fails the wait at once (e.g. its namespace was deleted). */
  guard?: () => Error | undefined;
}

/** A pod or job that failed for good; `logs` holds the last lines of the containers concerned. */
export class WorkloadFailedError extends Error {
  override readonly name = 'WorkloadFailedError';
  constructor(
    message: string,
    readonly logs: string,
  ) {
    super(logs ? `${message}\n${logs}` : message);
  }
}

const WRITES = new Set<KubeVerb>(['create', 'update', 'patch', 'delete']);

/** Set by Kubernetes' Job controller on the pods of a Job. */
const JOB_NAME_LABEL = 'job-name';
const nameOf = (object: { metadata?: { name?: string } }): string => object.metadata?.name ?? '';

/**
 * The one Kubernetes client of Antidote: JSON over HTTP to the REST paths of the few kinds we use
 * (`KIND_PATHS`), every call through the call runner (timeout, bounded retries, metrics hook); creates
 * adopt what we already own (409), deletes tolerate 404, lists are paged, and waits are watches
 * (resumed, re-listed on 410) or subscriptions to a shared informer, with a timeout.
 */
export class KubeClient {
  private readonly runner: KubeCallRunner;
  private readonly logger: KubeLogger;
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

  /**
   * Creates the object; when it exists already and is ours (see `ownerLabel`), adopts it. A pod
   * refused only because its namespace's ServiceAccount is not there yet (403, right after the
   * namespace) is sent again once a watch saw that ServiceAccount; every other 403 fails at once.
   */
  async create<K extends KubeKind>(kind: K, namespace: string, body: KindTypes[K], signal?: AbortSignal): Promise<KindTypes[K]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.createOnce(kind, namespace, body, signal);
      } catch (error) {
        const account = missingServiceAccount(error);
        if (!account || attempt >= SERVICE_ACCOUNT_ATTEMPTS) throw error;
        this.logger.debug({ namespace, name: nameOf(body), serviceAccount: account.name }, 'waiting for the service account');
        await this.waitForServiceAccount(account.namespace, account.name, { timeoutMs: this.options.serviceAccountWaitMs ?? 30_000, ...(signal ? { signal } : {}) });
      }
    }
  }

  /** Resolves once the ServiceAccount exists (a subscription to `informer` when given, else a watch; no polling). */
  waitForServiceAccount(namespace: string, name: string, options: CachedWaitOptions<V1ServiceAccount>): Promise<void> {
    return this.waitOn(
      'ServiceAccount',
      namespace,
      { fieldSelector: `metadata.name=${name}` },
      (accounts): WaitVerdict<void> => (accounts.has(name) ? { state: 'done', value: undefined } : { state: 'waiting', progress: 'not created yet' }),
      options,
      `service account ${namespace}/${name}`,
    );
  }

  private async createOnce<K extends KubeKind>(kind: K, namespace: string, body: KindTypes[K], signal?: AbortSignal): Promise<KindTypes[K]> {
    const name = nameOf(body);
    try {
      return await this.json('create', kind, namespace, name, { method: 'POST', path: KIND_PATHS[kind].collectionPath(namespace), body }, signal, true);
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      const existing = await this.read(kind, namespace, name, signal);
      if (existing && (this.owns(existing) || !this.owns(body))) return existing;
      throw error;
    }
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
      await this.call('delete', kind, namespace, name, { method: 'DELETE', path: `${KIND_PATHS[kind].objectPath(namespace, name)}?propagationPolicy=Background` }, signal);
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

  /** Every page of a list (one consistent snapshot: continue tokens keep the first page's version). */
  async listAll<K extends KubeKind>(kind: K, namespace: string, query: ListQuery = {}, signal?: AbortSignal): Promise<ListSnapshot<KindTypes[K]>> {
    const items: KindTypes[K][] = [];
    let resourceVersion = '';
    let continueToken: string | undefined;
    do {
      const page = await this.list(kind, namespace, { ...query, limit: query.limit ?? this.pageSize, ...(continueToken ? { continueToken } : {}) }, signal);
      items.push(...page.items);
      resourceVersion ||= page.resourceVersion;
      continueToken = page.continueToken;
    } while (continueToken);
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
      const reply = await this.runner.run({ verb: 'get', resource: 'pods/log', namespace, name: pod }, (signal) => this.http.send({ method: 'GET', path, signal }));
      return reply.text.trimEnd();
    } catch (error) {
      this.logger.debug({ namespace, pod, container, error: String(error) }, 'no pod log');
      return '';
    }
  }

  /** Resolves once every named pod is Running; fails at once, with the container's log, when one fails for good. */
  async waitForPodsRunning(namespace: string, names: readonly string[], options: CachedWaitOptions<V1Pod>): Promise<void> {
    const wanted = new Set(names);
    const failure = await this.waitOn<'Pod', { pod: string; reason: string; container?: string } | undefined>(
      'Pod',
      namespace,
      {},
      (pods) => {
        const pending: string[] = [];
        for (const name of wanted) {
          const pod = pods.get(name);
          if (!pod) {
            pending.push(`${name}: not created`);
            continue;
          }
          const state = podState(pod);
          if (state.state === 'failed') return { state: 'done', value: { pod: name, reason: state.reason, ...(state.container ? { container: state.container } : {}) } };
          if (state.state === 'pending') pending.push(`${name}: ${state.detail}`);
        }
        return pending.length === 0 ? { state: 'done', value: undefined } : { state: 'waiting', progress: pending.join('; ') };
      },
      options,
      `pods Running in ${namespace}`,
    );
    if (failure) {
      const logs = await this.podLogs(namespace, failure.pod, failure.container);
      throw new WorkloadFailedError(`pod ${failure.pod}: ${failure.reason}`, logs);
    }
  }

  /** Resolves once every named job succeeded; a failed job (backoffLimit used up) fails the wait with its pods' logs. */
  async waitForJobsComplete(namespace: string, names: readonly string[], options: CachedWaitOptions<V1Job>): Promise<void> {
    const failed = await this.waitOn<'Job', { job: string; reason: string } | undefined>(
      'Job',
      namespace,
      {},
      (jobs) => {
        const running: string[] = [];
        for (const name of names) {
          const job = jobs.get(name);
          const state = job ? jobState(job) : { state: 'running' as const };
          if (state.state === 'failed') return { state: 'done', value: { job: name, reason: state.reason } };
          if (state.state === 'running') running.push(name);
        }
        return running.length === 0 ? { state: 'done', value: undefined } : { state: 'waiting', progress: `still running: ${running.join(', ')}` };
      },
      options,
      `configuration jobs in ${namespace}`,
    );
    if (failed) {
      const pods = await this.list('Pod', namespace, { labelSelector: `${JOB_NAME_LABEL}=${failed.job}` }).catch((error: unknown) => {
        this.logger.warn({ namespace, job: failed.job, error: String(error) }, 'no pods listed for the failed job; its logs are left out');
        return { items: [] as V1Pod[] };
      });
      const logs = await Promise.all(pods.items.slice(-1).map((pod) => this.podLogs(namespace, nameOf(pod))));
      throw new WorkloadFailedError(`configuration job ${failed.job} failed: ${failed.reason}`, logs.join('\n'));
    }
  }

  /** Resolves once no object of `kind` named `name` is left in `namespace` (pods of replaced jobs, …). */
  waitForGone(kind: KubeKind, namespace: string, labelSelector: string, options: WaitOptions): Promise<void> {
    return watchUntil(
      this.watchSource(kind, namespace, { labelSelector }),
      (objects): WaitVerdict<void> => (objects.size === 0 ? { state: 'done', value: undefined } : { state: 'waiting', progress: `${objects.size} left` }),
      { ...options, logger: this.logger, what: `${kind} (${labelSelector}) gone from ${namespace}` },
    );
  }

  /** Resolves once the namespace no longer exists. */
  waitForNamespaceGone(name: string, options: CachedWaitOptions<V1Namespace>): Promise<void> {
    return this.waitOn<'Namespace', void>(
      'Namespace',
      name,
      { fieldSelector: `metadata.name=${name}` },
      (namespaces) => {
        const namespace = namespaces.get(name);
        return namespace ? { state: 'waiting', progress: namespace.status?.phase ?? 'Active' } : { state: 'done', value: undefined };
      },
      options,
      `namespace ${name} to be gone`,
    );
  }

  /**
   * A shared cache of `kind` across all namespaces, selected by a label selector or a label and field
   * selector (one list, then one watch, for the whole process). Started by the caller; pass it to the
   * waits as `informer`. `keep`: what of each object it holds (e.g. `metadataAndStatus`), the whole
   * object by default.
   */
  informer<K extends KubeKind>(kind: K, selector: string | Pick<ListQuery, 'labelSelector' | 'fieldSelector'>, keep?: (object: KindTypes[K]) => KindTypes[K]): SharedInformer<KindTypes[K]> {
    const query = typeof selector === 'string' ? { labelSelector: selector } : selector;
    return new SharedInformer(this.watchSource(kind, '', query), { clusterScoped: !KIND_PATHS[kind].namespaced, logger: this.logger, keep });
  }

  /** A wait on the informer when one is given (scope: the namespace, or the name of a cluster-scoped object), else a list + watch of its own. */
  private waitOn<K extends KubeKind, R>(
    kind: K,
    scope: string,
    query: ListQuery,
    evaluate: (objects: ReadonlyMap<string, KindTypes[K]>) => WaitVerdict<R>,
    options: CachedWaitOptions<KindTypes[K]>,
    what: string,
  ): Promise<R> {
    const { informer, guard, ...wait } = options;
    const guarded = (objects: ReadonlyMap<string, KindTypes[K]>): WaitVerdict<R> => {
      const error = guard?.();
      return error ? { state: 'failed', error } : evaluate(objects);
    };
    if (informer) return informer.waitFor(scope, guarded, { ...wait, what });
    const namespace = KIND_PATHS[kind].namespaced ? scope : '';
    return watchUntil(this.watchSource(kind, namespace, query), guarded, { ...wait, logger: this.logger, what });
  }

  /** Merges `labels` into a namespace's labels: one JSON merge PATCH (other labels untouched). */
  async patchNamespaceLabels(name: string, labels: Record<string, string>, signal?: AbortSignal): Promise<void> {
    const path = KIND_PATHS.Namespace.objectPath('', name);
    await this.call('patch', 'Namespace', '', name, { method: 'PATCH', path, body: { metadata: { labels } }, contentType: 'application/merge-patch+json' }, signal);
  }

  /** Drops every finalizer of a Terminating namespace (the `finalize` subresource). */
  async removeNamespaceFinalizers(name: string): Promise<void> {
    const namespace = await this.read('Namespace', '', name);
    if (!namespace) return;
    const path = `${KIND_PATHS.Namespace.objectPath('', name)}/finalize`;
    const body = { ...namespace, spec: { ...namespace.spec, finalizers: [] } };
    await this.runner.run({ verb: 'update', resource: 'namespaces/finalize', name }, (signal) => this.http.send({ method: 'PUT', path, body, signal }));
  }

  // CrdClient (libs/crd)
  createCustomResourceDefinition(crd: V1CustomResourceDefinition, signal?: AbortSignal): Promise<V1CustomResourceDefinition> {
    return this.json('create', 'CustomResourceDefinition', '', nameOf(crd), { method: 'POST', path: KIND_PATHS.CustomResourceDefinition.collectionPath(), body: crd }, signal, true);
  }

  readCustomResourceDefinition(name: string, signal?: AbortSignal): Promise<V1CustomResourceDefinition> {
    return this.json('get', 'CustomResourceDefinition', '', name, { method: 'GET', path: KIND_PATHS.CustomResourceDefinition.objectPath('', name) }, signal);
  }

  waitForCustomResourceDefinition(
    name: string,
    done: (crd: V1CustomResourceDefinition) => boolean,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<V1CustomResourceDefinition> {
    return watchUntil<V1CustomResourceDefinition, V1CustomResourceDefinition>(
      this.watchSource('CustomResourceDefinition', '', { fieldSelector: `metadata.name=${name}` }),
      (crds) => {
        const crd = crds.get(name);
        try {
          return crd && done(crd) ? { state: 'done', value: crd } : { state: 'waiting' };
        } catch (error) {
          return { state: 'failed', error: error as Error };
        }
      },
      { ...options, logger: this.logger, what: `CRD ${name}` },
    );
  }

  private owns(object: { metadata?: { labels?: Record<string, string> } }): boolean {
    const owner = this.options.ownerLabel;
    return owner !== undefined && object.metadata?.labels?.[owner.key] === owner.value;
  }

  /** One call about `kind` (a write waits its turn among the bounded writes); the reply as it came. */
  private call(verb: KubeVerb, kind: KubeKind, namespace: string, name: string | undefined, request: Omit<KubeRequest, 'signal'>, signal?: AbortSignal, createIsSafe = false): Promise<KubeReply> {
    const paths = KIND_PATHS[kind];
    const target: KubeCallTarget = { verb, resource: paths.resource, ...(paths.namespaced && namespace ? { namespace } : {}), ...(name ? { name } : {}) };
    const run = (): Promise<KubeReply> => this.runner.run(target, (attemptSignal) => this.http.send({ ...request, signal: attemptSignal }), { ...(signal ? { signal } : {}), createIsSafe });
    return this.writes && WRITES.has(verb) ? this.writes.run(run, signal, writeRank()) : run();
  }

  /** A call whose answer is a JSON object. */
  private async json<T>(verb: KubeVerb, kind: KubeKind, namespace: string, name: string | undefined, request: Omit<KubeRequest, 'signal'>, signal?: AbortSignal, createIsSafe = false): Promise<T> {
    return JSON.parse((await this.call(verb, kind, namespace, name, request, signal, createIsSafe)).text) as T;
  }
}
