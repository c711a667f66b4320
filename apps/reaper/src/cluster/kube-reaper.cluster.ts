import { Inject, Injectable } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { KubeClient, type KubeKind } from '@antidote/kube';
import { LABEL, managedNamespaceSelector } from '@antidote/lesson-objects';
import type { V1Namespace } from '@kubernetes/client-node';
import type { BlockingResource, NamespaceRecord, ReaperCluster } from './reaper-cluster.port.js';

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

  async listManagedNamespaces(pageSize: number): Promise<NamespaceRecord[]> {
    const list = await this.kube.listAll('Namespace', '', { labelSelector: managedNamespaceSelector(this.config.instanceId), limit: pageSize });
    return list.items.map(recordOf);
  }

  async deleteNamespace(name: string): Promise<void> {
    await this.kube.delete('Namespace', '', name);
  }

  async blockingResources(namespace: string): Promise<BlockingResource[]> {
    const found: BlockingResource[] = [];
    for (const kind of CONTENT_KINDS) {
      const list = await this.kube.listAll(kind, namespace).catch(() => ({ items: [] }));
      for (const object of list.items) {
        const finalizers = object.metadata?.finalizers ?? [];
        if (finalizers.length > 0) found.push({ kind, name: object.metadata?.name ?? '', finalizers });
      }
    }
    return found;
  }

  async removeFinalizers(namespace: string, resources: readonly BlockingResource[]): Promise<void> {
    for (const resource of resources) {
      const kind = resource.kind as KubeKind;
      const object = await this.kube.read(kind, namespace, resource.name);
      if (!object?.metadata?.finalizers?.length) continue;
      await this.kube.replace(kind, namespace, { ...object, metadata: { ...object.metadata, finalizers: [] } });
    }
    await this.kube.removeNamespaceFinalizers(namespace);
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
    conditions: (namespace.status?.conditions ?? []).filter((condition) => condition.status === 'True').map((condition) => `${condition.type}: ${condition.message ?? ''}`),
  };
}
