import type { AntidoteConfig } from '@antidote/config';
import { buildPrePullDaemonSet, PRE_PULL_SPEC_ANNOTATION, prePullImages } from '@antidote/lesson-objects';
import type { V1DaemonSet } from '@kubernetes/client-node';
import type { CurriculumImages, PrePullCluster } from './pre-pull.port.js';

/** What one pass did: the DaemonSet made, changed, already right, or nothing to do yet. */
export type PrePullOutcome = 'created' | 'updated' | 'unchanged' | 'no-curriculum';

export interface PrePullState {
  outcome: PrePullOutcome;
  namespace: string;
  name?: string;
  images: number;
  /** Nodes that should run it, and nodes where it is ready (every image pulled). */
  desired?: number;
  ready?: number;
}

/** The namespace of the pre-pull DaemonSet: `scheduler.prePull.namespace`, else the platform's (`secretsNamespace`). */
export const prePullNamespace = (config: AntidoteConfig): string => config.scheduler.prePull.namespace ?? config.kubernetes.secretsNamespace;

const digestOf = (set: V1DaemonSet | undefined): string | undefined => set?.metadata?.annotations?.[PRE_PULL_SPEC_ANNOTATION];

/**
 * One reconciliation of the pre-pull DaemonSet with the curriculum: created when missing, replaced (an
 * update, never a delete and re-create) when its image set or settings changed — told by the spec digest
 * it carries — and left alone otherwise, so a scheduler start changes nothing. No curriculum yet: nothing.
 */
export async function syncPrePull(config: AntidoteConfig, curriculum: CurriculumImages, cluster: PrePullCluster, signal?: AbortSignal): Promise<PrePullState> {
  const namespace = prePullNamespace(config);
  const slugs = await curriculum.slugs();
  if (slugs.length === 0) return { outcome: 'no-curriculum', namespace, images: 0 };
  const images = prePullImages(config, slugs);
  const wanted = buildPrePullDaemonSet(config, images, namespace);
  const name = wanted.metadata!.name!;
  const live = await cluster.read(namespace, name, signal);
  const state = (outcome: PrePullOutcome, set: V1DaemonSet): PrePullState => ({
    outcome,
    namespace,
    name,
    images: images.length,
    desired: set.status?.desiredNumberScheduled ?? 0,
    ready: set.status?.numberReady ?? 0,
  });
  if (!live) return state('created', await cluster.create(wanted, signal));
  if (digestOf(live) === digestOf(wanted)) return state('unchanged', live);
  const replaced = await cluster.replace({ ...wanted, metadata: { ...wanted.metadata, resourceVersion: live.metadata?.resourceVersion } }, signal);
  return state('updated', replaced);
}
