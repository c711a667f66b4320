import { Inject, Injectable } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { isNotFound, KubeClient, type KubeKind } from '@antidote/kube';
import { LABEL, managedNamespaceSelector } from '@antidote/lesson-objects';
import type { V1Namespace, V1ObjectMeta } from '@kubernetes/client-node';
import type { BlockingResource, NamespaceRecord, ReaperCluster, StuckNamespaceOutcome } from './reaper-cluster.port.js';

/** Kinds a lesson namespace holds that may carry finalizers. */
const CONTENT_KINDS: readonly KubeKind[] = ['Pod', 'Service', 'Job', 'Secret', 'Ingress', 'NetworkAttachmentDefinition', 'NetworkPolicy'];
const LIVE_LESSON_ID = /^[a-z0-9]{1,63}$/;

/** The reaper's Kubernetes side: one paged list of the managed namespaces per pass, deletes without waiting. */
@Injectable()
export class KubeReaperCluster implements ReaperCluster {
  /** Its own call count: a pass reports the calls it made, not the leader lease's renewals meanwhile. */
  private readonly kube: KubeClient;

  constructor(
    @Inject(KubeClient) kube: KubeClient,
    @InjectConfig() private readonly config: AntidoteConfig,
  ) {
    this.kube = kube.child();
  }

  /** Page by page, each page kept as records only: the whole namespaces of 10,000 lessons at once are tens of MiB. */
  async listManagedNamespaces(pageSize: number): Promise<NamespaceRecord[]> {
    const records: NamespaceRecord[] = [];
    for await (const page of this.kube.pages('Namespace', '', { labelSelector: managedNamespaceSelector(this.config.instanceId), limit: pageSize })) {
      records.push(...page.items.map(recordOf));
    }
    return records;
  }

  async deleteNamespace(name: string): Promise<void> {
    await this.kube.delete('Namespace', '', name);
  }

  async blockingResources(namespace: string): Promise<BlockingResource[]> {
    const found: BlockingResource[] = [];
    for (const { kind, items } of await this.contents(namespace)) {
      for (const object of items) {
        const finalizers = object.metadata?.finalizers ?? [];
        if (finalizers.length > 0) found.push({ kind, name: object.metadata?.name ?? '', finalizers });
      }
    }
    return found;
  }

  /**
   * Clears the finalizers of the blocking objects, so the namespace controller can finish. The namespace
   * itself is finalized only once nothing of its content is left: `finalize` on a namespace that still
   * holds objects removes it at once on a real server and orphans them.
   */
  async removeFinalizers(namespace: string, resources: readonly BlockingResource[]): Promise<StuckNamespaceOutcome> {
    for (const resource of resources) {
      const kind = resource.kind as KubeKind;
      const object = await this.kube.read(kind, namespace, resource.name);
      if (!object?.metadata?.finalizers?.length) continue;
      await this.kube.replace(kind, namespace, { ...object, metadata: { ...object.metadata, finalizers: [] } });
    }
    const remaining = (await this.contents(namespace)).reduce((sum, { items }) => sum + items.length, 0);
    if (remaining > 0) return { namespaceFinalized: false, remaining };
    await this.kube.removeNamespaceFinalizers(namespace);
    return { namespaceFinalized: true, remaining: 0 };
  }

  /** The namespace's objects of every content kind; a kind the cluster does not serve (404) holds none, other errors fail. */
  private async contents(namespace: string): Promise<{ kind: KubeKind; items: { metadata?: V1ObjectMeta }[] }[]> {
    const lists = [];
    for (const kind of CONTENT_KINDS) {
      const list = await this.kube.listAll(kind, namespace).catch((error: unknown) => {
        if (isNotFound(error)) return { items: [] };
        throw error;
      });
      lists.push({ kind, items: list.items as { metadata?: V1ObjectMeta }[] });
    }
    return lists;
  }

  callCount(): number {
    return this.kube.callCount();
  }
}

function recordOf(namespace: V1Namespace): NamespaceRecord {
  const metadata = namespace.metadata ?? {};
  const label = metadata.labels?.[LABEL.liveLesson];
  const deleting = metadata.deletionTimestamp;
  return {
    name: metadata.name ?? '',
    ...(label && LIVE_LESSON_ID.test(label) ? { liveLessonId: label } : {}),
    ...(metadata.creationTimestamp ? { createdAt: new Date(metadata.creationTimestamp) } : {}),
    ...(deleting ? { deletingSince: new Date(deleting) } : {}),
    finalizers: [...(namespace.spec?.finalizers ?? []), ...(metadata.finalizers ?? [])],
    conditions: (namespace.status?.conditions ?? [])
      .filter((condition) => condition.status === 'True')
      .map((condition) => `${condition.type}: ${condition.message ?? ''}`),
  };
}
