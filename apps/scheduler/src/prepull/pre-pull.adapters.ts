import { Inject, Injectable } from '@nestjs/common';
import { DataManager } from '@antidote/data';
import { KubeClient } from '@antidote/kube';
import type { V1DaemonSet } from '@kubernetes/client-node';
import type { CurriculumImages, PrePullCluster } from './pre-pull.port.js';

/** Pre-pull's calls on the Kubernetes API (retries, metrics and the write bound of KubeClient). */
@Injectable()
export class KubePrePullCluster implements PrePullCluster {
  constructor(@Inject(KubeClient) private readonly kube: KubeClient) {}

  read(namespace: string, name: string, signal?: AbortSignal): Promise<V1DaemonSet | undefined> {
    return this.kube.read('DaemonSet', namespace, name, signal);
  }

  create(set: V1DaemonSet, signal?: AbortSignal): Promise<V1DaemonSet> {
    return this.kube.create('DaemonSet', set.metadata!.namespace!, set, signal);
  }

  replace(set: V1DaemonSet, signal?: AbortSignal): Promise<V1DaemonSet> {
    return this.kube.replace('DaemonSet', set.metadata!.namespace!, set, signal);
  }
}

/** The curriculum's images, from the database (written by every import). */
@Injectable()
export class DatabaseCurriculumImages implements CurriculumImages {
  constructor(@Inject(DataManager) private readonly data: DataManager) {}

  async slugs(): Promise<string[]> {
    return (await this.data.curriculum.listImages()).map((image) => image.slug);
  }
}
