import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import {
  buildConfigObjects,
  buildLessonObjects,
  copySecret,
  JOB_TYPE_CONFIG,
  JUPYTER_ENDPOINT,
  LABEL,
  LessonObjectError,
  MANAGED,
  managedNamespaceSelector,
  podNameOf,
  type LessonObjectSet,
  type LessonObjectsInput,
} from '@antidote/lesson-objects';
import { KubeClient, waitForJobsComplete, waitForPodsRunning, waitForServiceAccount } from '@antidote/kube';
import type { V1Job, V1Namespace, V1Pod, V1Secret } from '@kubernetes/client-node';
import { LessonFailure } from '../lesson/lesson-failure.error.js';
import type { LessonCluster, LessonPlan, ManagedNamespace } from './lesson-cluster.port.js';
import { LessonInformers, POD_SERVICE_ACCOUNT } from './lesson-informers.js';

/** Copied secrets change rarely; one read per minute instead of one per live lesson. */
const SECRET_CACHE_MS = 60_000;
const LOG_LINES = 30;

/**
 * The scheduler's Kubernetes side on the real API (KubeClient): builds the whole object set first (so
 * an unbuildable lesson leaves nothing behind), then creates it in reference order — namespace, then
 * policies, quota, secrets and NADs together, pods one by one in lesson order (host-local IPAM order),
 * services and ingresses together. Every create adopts what a previous attempt left.
 */
@Injectable()
export class KubeLessonCluster implements LessonCluster {
  private readonly logger = new Logger('Cluster');
  private readonly secrets = new Map<string, { secret: V1Secret; until: number }>();

  constructor(
    @Inject(KubeClient) private readonly kube: KubeClient,
    @Inject(LessonInformers) private readonly informers: LessonInformers,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {}

  async provision(plan: LessonPlan, signal: AbortSignal): Promise<Map<string, string>> {
    const objects = this.objectsOf(plan);
    const ns = plan.namespace;
    await this.kube.ensure('Namespace', '', objects.namespace, signal);
    const secrets = await Promise.all(objects.secretsToCopy.map((name) => this.sourceSecret(name, signal)));
    await Promise.all([
      ...objects.networkPolicies.map((policy) => this.kube.ensure('NetworkPolicy', ns, policy, signal)),
      ...(objects.resourceQuota ? [this.kube.ensure('ResourceQuota', ns, objects.resourceQuota, signal)] : []),
      ...(objects.limitRange ? [this.kube.ensure('LimitRange', ns, objects.limitRange, signal)] : []),
      ...secrets.map((secret) => this.kube.ensure('Secret', ns, copySecret(secret, ns), signal)),
      ...objects.networkAttachments.map((nad) => this.kube.ensure('NetworkAttachmentDefinition', ns, nad, signal)),
    ]);
    // Admission refuses a pod until its namespace's ServiceAccount exists: wait for it in the cache (no call).
    // The one guard against that race: the client does not retry a create refused for it.
    const accountWait = {
      timeoutMs: this.config.timeouts.podRunningSeconds * 1000,
      signal,
      informer: this.informers.serviceAccounts,
      guard: this.namespaceGuard(ns),
    };
    await waitForServiceAccount(this.kube, ns, POD_SERVICE_ACCOUNT, accountWait).catch((error: unknown) => {
      throw new LessonFailure(`The namespace's ServiceAccount never appeared, so no pod can start: ${(error as Error).message}`);
    });
    for (const { pod } of objects.endpoints) await this.kube.ensure('Pod', ns, pod, signal);
    const hosts = new Map<string, string>();
    await Promise.all(
      objects.endpoints.map(async ({ endpoint, service, ingresses }) => {
        const created = await this.kube.create('Service', ns, service, signal);
        const host = created.spec?.clusterIP;
        if (host && host !== 'None') hosts.set(endpoint.name, host);
        await Promise.all(ingresses.map((ingress) => this.kube.ensure('Ingress', ns, ingress, signal)));
      }),
    );
    return hosts;
  }

  async waitForPods(plan: LessonPlan, timeoutMs: number, signal: AbortSignal): Promise<void> {
    // The names the pod builder gives (one pod per endpoint), without building the objects again.
    const names = plan.liveLesson.endpoints.map(podNameOf);
    const options = { timeoutMs, signal, informer: this.informers.pods, guard: this.namespaceGuard(plan.namespace) };
    await waitForPodsRunning(this.kube, plan.namespace, names, options).catch((error: unknown) => {
      throw new LessonFailure(`Timeout or failure waiting for LiveEndpoints to start: ${(error as Error).message}`);
    });
  }

  async configure(plan: LessonPlan, stage: number, timeouts: { oldJobsGoneMs: number; jobsMs: number }, signal: AbortSignal): Promise<void> {
    const ns = plan.namespace;
    // Other stages' jobs and their pods go first (propagation Background deletes the pods with them); the cache knows them.
    const otherStage = (object: V1Job | V1Pod): boolean => object.metadata?.labels?.[LABEL.stageId] !== String(stage);
    const old = [...this.informers.jobs.objectsIn(ns).values()].filter((job) => job.metadata?.labels?.[LABEL.jobType] === JOB_TYPE_CONFIG && otherStage(job));
    await Promise.all(old.map((job) => this.kube.delete('Job', ns, job.metadata?.name ?? '', signal)));
    if (old.length > 0) {
      await this.informers.pods.waitFor(
        ns,
        (pods) => {
          const left = [...pods.values()].filter((pod) => pod.metadata?.labels?.[LABEL.configPod] === MANAGED && otherStage(pod)).length;
          return left === 0 ? { state: 'done', value: undefined } : { state: 'waiting', progress: `${left} left` };
        },
        { timeoutMs: timeouts.oldJobsGoneMs, signal, what: `configuration pods of other stages gone from ${ns}` },
      );
    }
    const { credentials, jobs } = this.configObjectsOf(plan, stage);
    if (jobs.length === 0) return;
    await this.kube.ensure('Secret', ns, credentials, signal);
    await Promise.all(jobs.map((job) => this.kube.ensure('Job', ns, job, signal)));
    const options = { timeoutMs: timeouts.jobsMs, signal, informer: this.informers.jobs, guard: this.namespaceGuard(ns) };
    await waitForJobsComplete(
      this.kube,
      ns,
      jobs.map((job) => job.metadata?.name ?? ''),
      options,
    ).catch((error: unknown) => {
      throw new LessonFailure(`Configuration of stage ${stage} failed: ${(error as Error).message}`);
    });
  }

  async podLogs(namespace: string, podNames: readonly string[]): Promise<string> {
    const logs = await Promise.all(
      podNames.map(async (pod) => {
        const text = await this.kube.podLogs(namespace, pod, undefined, LOG_LINES);
        return text ? `--- ${pod} ---\n${text}` : '';
      }),
    );
    return logs.filter(Boolean).join('\n');
  }

  async deleteNamespace(namespace: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (!(await this.kube.delete('Namespace', '', namespace, signal))) return;
    // Gone = seen going (Terminating or deleted) and no longer cached: a namespace the cache has not seen yet is not "gone".
    await this.informers.namespaces.waitFor(
      namespace,
      (cached) => {
        const left = cached.get(namespace);
        if (!left && this.informers.isGone(namespace)) return { state: 'done', value: undefined };
        return { state: 'waiting', progress: left?.status?.phase ?? 'not seen deleted yet' };
      },
      { timeoutMs, signal, what: `namespace ${namespace} to be gone` },
    );
  }

  /** From the namespace cache once it has synced (the scheduler is not ready before); a read before. */
  async labelNamespace(namespace: string, labels: Record<string, string>, signal: AbortSignal): Promise<void> {
    await this.kube.patchNamespaceLabels(namespace, labels, signal);
  }

  async namespaceExists(namespace: string): Promise<boolean> {
    if (this.informers.namespaces.hasSynced) return this.informers.namespaces.get(namespace, namespace) !== undefined;
    return (await this.kube.read('Namespace', '', namespace)) !== undefined;
  }

  async listManagedNamespaces(): Promise<ManagedNamespace[]> {
    const cache = this.informers.namespaces;
    const items: V1Namespace[] = cache.hasSynced
      ? cache.all()
      : (await this.kube.listAll('Namespace', '', { labelSelector: managedNamespaceSelector(this.config.instanceId) })).items;
    return items.map((namespace) => {
      const created = namespace.metadata?.creationTimestamp;
      const liveLessonId = namespace.metadata?.labels?.[LABEL.liveLesson];
      return {
        name: namespace.metadata?.name ?? '',
        ...(liveLessonId ? { liveLessonId } : {}),
        ...(created ? { createdAt: new Date(created) } : {}),
        terminating: namespace.status?.phase === 'Terminating' || Boolean(namespace.metadata?.deletionTimestamp),
      };
    });
  }

  /** Fails a wait at once when its namespace was deleted under it (by hand, by someone else). */
  private namespaceGuard(namespace: string): () => Error | undefined {
    return () => (this.informers.isGone(namespace) ? new Error(`namespace ${namespace} was deleted`) : undefined);
  }

  private objectsOf(plan: LessonPlan): LessonObjectSet {
    try {
      return buildLessonObjects(inputOf(plan, this.config.instanceId), this.config);
    } catch (error) {
      if (error instanceof LessonObjectError) throw new LessonFailure(`Lesson ${plan.lesson.slug} cannot be built: ${error.message}`);
      throw error;
    }
  }

  private configObjectsOf(plan: LessonPlan, stage: number): ReturnType<typeof buildConfigObjects> {
    try {
      return buildConfigObjects(inputOf(plan, this.config.instanceId), stage, this.config);
    } catch (error) {
      if (error instanceof LessonObjectError) throw new LessonFailure(`Stage ${stage} of ${plan.lesson.slug} cannot be configured: ${error.message}`);
      throw error;
    }
  }

  private async sourceSecret(name: string, signal: AbortSignal): Promise<V1Secret> {
    const cached = this.secrets.get(name);
    if (cached && cached.until > Date.now()) return cached.secret;
    const from = this.config.kubernetes.secretsNamespace;
    const secret = await this.kube.read('Secret', from, name, signal);
    if (!secret) throw new LessonFailure(`Secret ${from}/${name} (kubernetes secretsNamespace) does not exist: it is copied into every lesson namespace`);
    this.secrets.set(name, { secret, until: Date.now() + SECRET_CACHE_MS });
    this.logger.debug(`read secret ${from}/${name}`);
    return secret;
  }
}

/** The builders' input from a plan: the live endpoints (with hosts) plus the curriculum's per-stage files. */
export function inputOf(plan: LessonPlan, instanceId: string): LessonObjectsInput {
  const { liveLesson, lesson } = plan;
  return {
    instanceId,
    liveLessonId: liveLesson.id,
    sessionId: liveLesson.sessionId,
    lessonSlug: liveLesson.lessonSlug,
    createdAt: liveLesson.createdAt,
    guideDomain: liveLesson.guideDomain,
    lesson,
    images: plan.images,
    endpoints: [...liveLesson.endpoints]
      .sort((a, b) => a.position - b.position)
      .map((endpoint) => {
        const files = lesson.endpoints.find((e) => e.name === endpoint.name)?.configurationFiles;
        return {
          name: endpoint.name,
          image: endpoint.image,
          ports: endpoint.ports,
          presentations: endpoint.presentations,
          configurationType: endpoint.configurationType,
          configurationFile: endpoint.configurationFile,
          ...(files ? { configurationFiles: files } : {}),
          ...(endpoint.name === JUPYTER_ENDPOINT ? { jupyterGuide: true } : {}),
          ...(endpoint.host ? { host: endpoint.host } : {}),
        };
      }),
  };
}
