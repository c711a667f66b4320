import type { V1DaemonSet } from '@kubernetes/client-node';

/** The Kubernetes calls pre-pull makes (KubeClient in production, a fake in unit specs). */
export interface PrePullCluster {
  read(namespace: string, name: string, signal?: AbortSignal): Promise<V1DaemonSet | undefined>;
  create(set: V1DaemonSet, signal?: AbortSignal): Promise<V1DaemonSet>;
  /** An update carrying the live object's resourceVersion (409 when another replica changed it first). */
  replace(set: V1DaemonSet, signal?: AbortSignal): Promise<V1DaemonSet>;
}

export const PRE_PULL_CLUSTER = Symbol.for('antidote.scheduler.pre-pull-cluster');

/** The curriculum's image slugs (the database). */
export interface CurriculumImages {
  slugs(): Promise<string[]>;
}

export const CURRICULUM_IMAGES = Symbol.for('antidote.scheduler.curriculum-images');
