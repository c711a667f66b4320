import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { KubeClient, type SharedInformer } from '@antidote/kube';
import { instanceObjectSelector } from '@antidote/lesson-objects';
import { ReadinessRegistry } from '@antidote/runtime';
import type { V1Job, V1Namespace, V1Pod, V1ServiceAccount } from '@kubernetes/client-node';
import { jobAsWaited, namespaceAsWaited, podAsWaited, serviceAccountAsWaited } from './cache-shapes.js';

/** The ServiceAccount a lesson's pods run as: the namespace's own, made by a controller just after the namespace. */
export const POD_SERVICE_ACCOUNT = 'default';

/** How many namespaces deleted out from under us are remembered (their waits fail at once). */
const GONE_MEMORY = 10_000;

/**
 * The scheduler's shared caches — this instance's namespaces, pods and jobs (label-selected, across all
 * namespaces), and every namespace's `default` ServiceAccount (field-selected: the account carries no
 * label of ours) — each one list and then one watch for the whole process, resumed after a dropped
 * stream and re-listed on 410. Every wait of every live lesson is a subscription to them (no Kubernetes
 * call); a pod is created once its namespace's ServiceAccount is in the cache, so the admission race
 * right after a new namespace costs no refused create and no watch. Readiness `informers` holds once all
 * have synced, so no work starts on an empty cache. A namespace seen deleted (or Terminating) re-checks
 * the waits in it, which then fail.
 */
@Injectable()
export class LessonInformers implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Informers');
  readonly namespaces: SharedInformer<V1Namespace>;
  readonly pods: SharedInformer<V1Pod>;
  readonly jobs: SharedInformer<V1Job>;
  readonly serviceAccounts: SharedInformer<V1ServiceAccount>;
  private readonly stopping = new AbortController();
  private readonly gone = new Set<string>();
  private readonly goneListeners = new Set<(namespace: V1Namespace) => void>();

  constructor(
    @Inject(KubeClient) kube: KubeClient,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @InjectConfig() config: AntidoteConfig,
  ) {
    const selector = instanceObjectSelector(config.instanceId);
    // Of every object, only what the waits read (cache-shapes.ts): most of a pod is its spec.
    this.namespaces = kube.informer('Namespace', selector, namespaceAsWaited);
    this.pods = kube.informer('Pod', selector, podAsWaited);
    this.jobs = kube.informer('Job', selector, jobAsWaited);
    this.serviceAccounts = kube.informer('ServiceAccount', { fieldSelector: `metadata.name=${POD_SERVICE_ACCOUNT}` }, serviceAccountAsWaited);
    this.namespaces.onChange((type, namespace, name) => {
      if (type !== 'DELETED' && !namespace.metadata?.deletionTimestamp) {
        this.gone.delete(name);
        return;
      }
      if (this.gone.has(name)) return;
      if (this.gone.size >= GONE_MEMORY) this.gone.delete(this.gone.values().next().value as string);
      this.gone.add(name);
      this.pods.recheck(name);
      this.jobs.recheck(name);
      this.serviceAccounts.recheck(name);
      for (const listener of this.goneListeners) listener(namespace);
    });
  }

  onModuleInit(): void {
    this.readiness.register('informers', () => this.all().every((informer) => informer.hasSynced));
    for (const informer of this.all()) informer.start(this.stopping.signal);
    this.logger.log(
      `watching ${this.all()
        .map((informer) => informer.source.description)
        .join(', ')}`,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.all().map((informer) => informer.stopped()));
  }

  /** Called once per namespace seen deleted or Terminating. */
  onNamespaceGone(listener: (namespace: V1Namespace) => void): void {
    this.goneListeners.add(listener);
  }

  private all(): Pick<SharedInformer<object>, 'hasSynced' | 'start' | 'stopped' | 'source'>[] {
    return [this.namespaces, this.pods, this.jobs, this.serviceAccounts];
  }

  /** True once the namespace was seen deleted or Terminating. */
  isGone(namespace: string): boolean {
    return this.gone.has(namespace);
  }
}
