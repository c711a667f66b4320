import { randomBytes } from 'node:crypto';
import type { KindBehaviour } from '../api/behaviour.js';
import type { KubeObject } from '../api/object.js';
import { ApiError } from '../api/status.js';
import type { ObjectStore, StoreEvent } from '../api/store.js';
import type { SimContext } from './sim-context.js';

/** A pod refused by admission (quota, no ServiceAccount yet) is tried again after this long. */
const RETRY_MS = 500;
const GENERATION_LABEL = 'pod-template-generation';

interface DaemonSetSpec {
  template: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: Record<string, unknown> };
}

const podIsReady = (pod: KubeObject): boolean =>
  ((pod.status?.conditions as { type: string; status: string }[] | undefined) ?? []).some(
    (condition) => condition.type === 'Ready' && condition.status === 'True',
  );
const ownedBy = (pod: KubeObject, set: KubeObject): boolean =>
  pod.metadata.ownerReferences?.some((owner) => owner.kind === 'DaemonSet' && owner.uid === set.metadata.uid) ?? false;
const podsOf = (store: ObjectStore, set: KubeObject): KubeObject[] =>
  store.list('/pods', set.metadata.namespace).filter((pod) => ownedBy(pod, set) && !pod.metadata.deletionTimestamp);

/** `imagePullPolicy` as the API server defaults it: Always for `:latest` or no tag, else IfNotPresent. */
const pullPolicyOf = (image = ''): string => {
  if (image.includes('@')) return 'IfNotPresent';
  const tag = /:([^/:]+)$/.exec(image)?.[1];
  return tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent';
};
const defaultContainers = (list: unknown): unknown =>
  Array.isArray(list)
    ? list.map((container: Record<string, unknown>) => ({
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: pullPolicyOf(container.image as string | undefined),
        ...container,
      }))
    : list;

/** The defaults the API server gives a DaemonSet's spec and pod template. */
function withDefaults(spec: Record<string, unknown>): Record<string, unknown> {
  const template = { ...(spec.template as { spec?: Record<string, unknown> }) };
  const podSpec: Record<string, unknown> = {
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    securityContext: {},
    schedulerName: 'default-scheduler',
    ...template.spec,
  };
  template.spec = {
    ...podSpec,
    containers: defaultContainers(podSpec.containers),
    ...(podSpec.initContainers ? { initContainers: defaultContainers(podSpec.initContainers) } : {}),
  };
  return { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10, ...spec, template };
}

/** The status fields `kubectl rollout status ds` and the platform read, from the pods as they stand. */
export function daemonSetStatus(set: KubeObject, nodes: string[], pods: KubeObject[]): Record<string, unknown> {
  const generation = String(set.metadata.generation ?? 1);
  const scheduled = pods.filter((pod) => nodes.includes(pod.spec?.nodeName as string));
  const ready = scheduled.filter(podIsReady).length;
  return {
    currentNumberScheduled: scheduled.length,
    numberMisscheduled: pods.length - scheduled.length,
    desiredNumberScheduled: nodes.length,
    numberReady: ready,
    numberAvailable: ready,
    ...(nodes.length - ready > 0 ? { numberUnavailable: nodes.length - ready } : {}),
    updatedNumberScheduled: scheduled.filter((pod) => pod.metadata.labels?.[GENERATION_LABEL] === generation).length,
    observedGeneration: set.metadata.generation ?? 1,
  };
}

/**
 * DaemonSets (apps/v1): one pod per node, owned by the DaemonSet and bound to its node; a changed
 * template replaces every pod at once (the real controller's RollingUpdate does it node by node, at most
 * `maxUnavailable` at a time); status counts recomputed whenever one of its pods or a node changes.
 * Deleting the DaemonSet deletes its pods (the garbage collector's background propagation) unless Orphan.
 */
export function daemonSetBehaviour(sim: SimContext): KindBehaviour {
  const type = () => sim.type('apps', 'daemonsets');
  const podType = () => sim.type('', 'pods');
  const nodes = () => sim.store.list('/nodes').map((node) => node.metadata.name!);
  const current = (set: KubeObject) => {
    const stored = sim.store.get('apps/daemonsets', set.metadata.namespace, set.metadata.name!);
    return stored && stored.metadata.uid === set.metadata.uid && !stored.metadata.deletionTimestamp ? stored : undefined;
  };

  const refreshStatus = (set: KubeObject): void => {
    const status = daemonSetStatus(set, nodes(), podsOf(sim.store, set));
    sim.mutate(type(), set.metadata.namespace, set.metadata.name!, (object) => {
      object.status = status;
    });
  };

  const createPod = (set: KubeObject, node: string): void => {
    const spec = set.spec as unknown as DaemonSetSpec;
    const { name, uid } = set.metadata as { name: string; uid: string };
    try {
      sim.handler.create(
        podType(),
        set.metadata.namespace,
        {
          metadata: {
            name: `${name}-${randomBytes(3).toString('hex').slice(0, 5)}`,
            labels: { ...spec.template.metadata?.labels, [GENERATION_LABEL]: String(set.metadata.generation ?? 1) },
            ...(spec.template.metadata?.annotations ? { annotations: spec.template.metadata.annotations } : {}),
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name, uid, controller: true, blockOwnerDeletion: true }],
          },
          spec: { ...spec.template.spec, nodeName: node },
        },
        { internal: true },
      );
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 403) throw error;
      sim.log(`daemonset ${set.metadata.namespace}/${name}: pod for ${node}: ${error.message}; retrying`);
      sim.later(RETRY_MS, () => {
        const stored = current(set);
        if (stored) reconcile(stored);
      });
    }
  };

  const deletePod = (pod: KubeObject): void => {
    try {
      sim.handler.delete(podType(), pod.metadata.namespace, pod.metadata.name!, {});
    } catch {
      // already gone
    }
  };

  /** One pod of the current template on every node, none elsewhere. */
  const reconcile = (set: KubeObject): void => {
    const generation = String(set.metadata.generation ?? 1);
    const wanted = nodes();
    const pods = podsOf(sim.store, set);
    for (const pod of pods) {
      if (!wanted.includes(pod.spec?.nodeName as string) || pod.metadata.labels?.[GENERATION_LABEL] !== generation) deletePod(pod);
    }
    const kept = podsOf(sim.store, set);
    for (const node of wanted) if (!kept.some((pod) => pod.spec?.nodeName === node)) createPod(set, node);
    refreshStatus(set);
  };

  const later = (set: KubeObject) =>
    sim.later(0, () => {
      const stored = current(set);
      if (stored) reconcile(stored);
    });

  // Pods of a DaemonSet change state (pulled, Running, deleted); nodes come and go.
  sim.store.on('event', (event: StoreEvent) => {
    if (event.resource === '/nodes') for (const set of sim.store.list('apps/daemonsets')) later(set);
    if (event.resource !== '/pods') return;
    const owner = event.object.metadata.ownerReferences?.find((reference) => reference.kind === 'DaemonSet');
    const set = owner && sim.store.get('apps/daemonsets', event.namespace, owner.name);
    if (set && set.metadata.uid === owner.uid) sim.later(0, () => current(set) && refreshStatus(current(set)!));
  });

  return {
    prepareCreate(set) {
      set.spec = withDefaults(set.spec as Record<string, unknown>);
      set.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    },
    created: later,
    prepareUpdate(_previous, next) {
      next.spec = withDefaults(next.spec as Record<string, unknown>);
    },
    updated: later,
    deleted(set, options) {
      const pods = sim.store.list('/pods', set.metadata.namespace).filter((pod) => ownedBy(pod, set));
      for (const pod of pods) {
        if (options.propagationPolicy === 'Orphan') {
          sim.mutate(podType(), pod.metadata.namespace, pod.metadata.name!, (object) => {
            delete object.metadata.ownerReferences;
          });
        } else deletePod(pod);
      }
    },
  };
}
